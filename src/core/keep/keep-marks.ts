/**
 * What a person does to the marks, as data and pure functions over a keep decision: keep one and mark the
 * rest, invert, clear (per group or for all groups); which groups the list shows (filters by kind,
 * distance, Jaccard, size) in which order (group order, or the space a group's marks would free); and
 * the marks and "not a duplicate" list saved by path, so they survive a reload and a new scan.
 */
import { exclusionMatcher, type Exclusions } from '../documents/exclusions.ts';
import { pairMeasures } from '../export/plan.ts';
import type { DuplicateRelation } from '../groups/duplicate-relation.ts';
import { ROLE_KEEP, ROLE_REMOVE, type KeepDecision } from './keep-rules.ts';

/** The person's marks by document: true remove, false do not remove (absent: the rules decide). */
export type Marks = ReadonlyMap<number, boolean>;

/** An action on the marks of one group (a number) or of every group ('all'). */
export type MarkAction = { kind: 'keep-one' | 'invert' | 'clear'; group: number | 'all' };

type Groups = { count: number; offsets: Int32Array; members: Int32Array };

/**
 * The marks after `action`: `keep-one` marks every member but the kept files for removal; `invert` turns
 * each member's current role (remove <-> not remove; kept files and ignored documents untouched); `clear`
 * drops the person's marks so the rules decide again.
 */
export function applyMarkAction(marks: Marks, action: MarkAction, groups: Groups, decision: KeepDecision, ignored?: ReadonlySet<number>): Map<number, boolean> {
  const next = new Map(marks);
  const from = action.group === 'all' ? 0 : action.group;
  const to = action.group === 'all' ? groups.count : action.group + 1;
  for (let g = from; g < to; g++) {
    for (let s = groups.offsets[g]!; s < groups.offsets[g + 1]!; s++) {
      const d = groups.members[s]!;
      if (decision.role[s] === ROLE_KEEP || ignored?.has(d)) continue;
      if (action.kind === 'clear') next.delete(d);
      else next.set(d, action.kind === 'keep-one' ? true : decision.role[s] !== ROLE_REMOVE);
    }
  }
  return next;
}

/** Which groups the list shows. Null limits show everything. */
export interface GroupFilter {
  /** 'identical': groups of identical copies only; 'near': groups with a near-duplicate. */
  kind: 'all' | 'identical' | 'near';
  /** Shown when some member lies at most this many bits from the kept file. */
  maxDistance: number | null;
  /** Shown when some member has at least this exact Jaccard to the kept file. */
  minJaccard: number | null;
  /** Shown when some member is at least this many bytes. */
  minSize: number | null;
}

export const NO_GROUP_FILTER: GroupFilter = { kind: 'all', maxDistance: null, minJaccard: null, minSize: null };

/** The list's order: the groups' own order, or most bytes freed first. */
export type GroupSort = 'group' | 'reclaimable';

/** Per group: the bytes its members marked remove would free (a document counted in each group that lists it). */
export function reclaimableBytes(groups: Groups, sizes: ArrayLike<number>, decision: KeepDecision): Float64Array {
  const out = new Float64Array(groups.count);
  for (let g = 0; g < groups.count; g++) {
    for (let s = groups.offsets[g]!; s < groups.offsets[g + 1]!; s++) if (decision.role[s] === ROLE_REMOVE) out[g]! += sizes[groups.members[s]!]!;
  }
  return out;
}

type Relation = Pick<DuplicateRelation, 'groups' | 'exactGroup' | 'classOf' | 'graphOffsets' | 'graphNeighbour' | 'graphEdge' | 'verified'>;

/** The groups shown by `filter`, in `sort` order (ties in group order): group indexes. */
export function visibleGroups(relation: Relation, sizes: ArrayLike<number>, decision: KeepDecision, filter: GroupFilter, sort: GroupSort): number[] {
  const { groups } = relation;
  const shown: number[] = [];
  const measured = filter.maxDistance !== null || filter.minJaccard !== null;
  for (let g = 0; g < groups.count; g++) {
    const exact = relation.exactGroup[g] === 1;
    if ((filter.kind === 'identical' && !exact) || (filter.kind === 'near' && exact)) continue;
    const kept = decision.keeper[g]!;
    let sizeOk = filter.minSize === null;
    let measureOk = !measured;
    for (let s = groups.offsets[g]!; s < groups.offsets[g + 1]!; s++) {
      const d = groups.members[s]!;
      if (!sizeOk && sizes[d]! >= filter.minSize!) sizeOk = true;
      if (!measureOk && d !== kept) {
        const m = pairMeasures(relation, kept, d);
        const distanceOk = filter.maxDistance === null || (m.distance !== null && m.distance <= filter.maxDistance);
        const jaccardOk = filter.minJaccard === null || (m.jaccard !== null && m.jaccard >= filter.minJaccard);
        measureOk = distanceOk && jaccardOk;
      }
      if (sizeOk && measureOk) break;
    }
    if (sizeOk && measureOk) shown.push(g);
  }
  if (sort === 'reclaimable') {
    const bytes = reclaimableBytes(groups, sizes, decision);
    shown.sort((a, b) => bytes[b]! - bytes[a]! || a - b);
  }
  return shown;
}

/** The marks and "not a duplicate" lists as saved: by path, so they outlive document ids. */
export interface SavedMarks {
  marks: Array<[string, boolean]>;
  /** Documents that are not a duplicate of anything. */
  ignored: string[];
  /** Pairs that are not duplicates of each other (each document keeps its other matches), paths in order. */
  separated: Array<[string, string]>;
}

/** A pair of documents said not to be duplicates of each other, lower id first. */
export type SeparatedPair = readonly [number, number];

const ordered = (a: number, b: number): [number, number] => (a < b ? [a, b] : [b, a]);

/** The saved form of `marks`, `ignored` and `separated` (documents by id, named by `paths`). */
export function marksToSaved(marks: Marks, ignored: ReadonlySet<number>, paths: readonly string[], separated: readonly SeparatedPair[] = []): SavedMarks {
  return {
    marks: [...marks].map(([d, remove]) => [paths[d]!, remove]),
    ignored: [...ignored].map((d) => paths[d]!),
    separated: separated.map(([a, b]) => [paths[a]!, paths[b]!].sort() as [string, string]),
  };
}

/** The saved marks for the documents `paths` names now (paths no longer there are dropped). */
export function marksFromSaved(saved: SavedMarks, paths: readonly string[]): { marks: Map<number, boolean>; ignored: Set<number>; separated: SeparatedPair[] } {
  const byPath = new Map<string, number>();
  for (let d = 0; d < paths.length; d++) byPath.set(paths[d]!, d);
  const marks = new Map<number, boolean>();
  for (const [path, remove] of saved.marks) {
    const d = byPath.get(path);
    if (d !== undefined) marks.set(d, remove);
  }
  const ignored = new Set<number>();
  for (const path of saved.ignored) {
    const d = byPath.get(path);
    if (d !== undefined) ignored.add(d);
  }
  const separated: SeparatedPair[] = [];
  for (const [pa, pb] of saved.separated) {
    const a = byPath.get(pa);
    const b = byPath.get(pb);
    if (a !== undefined && b !== undefined) separated.push(ordered(a, b));
  }
  return { marks, ignored, separated };
}

/** Checks a value read back from storage; null when it is not saved marks (a record from before pair marks has none). */
export function asSavedMarks(value: unknown): SavedMarks | null {
  const v = value as Partial<SavedMarks> | null;
  if (!v || !Array.isArray(v.marks) || !Array.isArray(v.ignored)) return null;
  if (!v.marks.every((m) => Array.isArray(m) && typeof m[0] === 'string' && typeof m[1] === 'boolean')) return null;
  if (!v.ignored.every((p) => typeof p === 'string')) return null;
  const separated = v.separated ?? [];
  if (!Array.isArray(separated) || !separated.every((p) => Array.isArray(p) && typeof p[0] === 'string' && typeof p[1] === 'string')) return null;
  return { marks: v.marks, ignored: v.ignored, separated };
}

/** Toggles the pair (a, b) in `separated` (a new list). */
export function toggleSeparated(separated: readonly SeparatedPair[], a: number, b: number): SeparatedPair[] {
  const [x, y] = ordered(a, b);
  const rest = separated.filter(([p, q]) => p !== x || q !== y);
  return rest.length < separated.length ? rest : [...rest, [x, y]];
}

/** True when (a, b) is in `separated`. */
export function isSeparated(separated: readonly SeparatedPair[], a: number, b: number): boolean {
  const [x, y] = ordered(a, b);
  return separated.some(([p, q]) => p === x && q === y);
}

/** Each document's partners in `separated` (both ways), for a list that tags each separated pair. */
export function separatedPartners(separated: readonly SeparatedPair[]): Map<number, number[]> {
  const out = new Map<number, number[]>();
  const add = (d: number, other: number) => {
    const list = out.get(d);
    if (list) list.push(other);
    else out.set(d, [other]);
  };
  for (const [a, b] of separated) {
    add(a, b);
    add(b, a);
  }
  return out;
}

/** The pairs as one flat array (a0, b0, a1, b1, …), for the export worker. */
export function flatPairs(separated: readonly SeparatedPair[]): Uint32Array {
  return Uint32Array.from(separated.flat());
}

/**
 * The members a pair mark takes out of their group's plan: a member said not to be a duplicate of its
 * group's reference (it was in the group only as the reference's near-duplicate). A pair of two other
 * members leaves both in the group (only their pair leaves the exported pairs).
 */
export function separatedMembers(groups: Pick<Groups, 'offsets' | 'members'> & { reference: Int32Array; groupOf: Int32Array }, separated: readonly SeparatedPair[]): Set<number> {
  const out = new Set<number>();
  for (const [a, b] of separated) {
    for (const [ref, member] of [[a, b], [b, a]] as const) {
      const g = groups.groupOf[member]!;
      if (g >= 0 && groups.reference[g] === ref) out.add(member);
    }
  }
  return out;
}

/** Checks saved exclusions read back from storage; null when they are not. */
export function asExclusions(value: unknown): Exclusions | null {
  const v = value as Partial<Exclusions> | null;
  if (!v || !Array.isArray(v.patterns) || !Array.isArray(v.extensions)) return null;
  if (!v.patterns.every((p) => typeof p === 'string') || !v.extensions.every((e) => typeof e === 'string')) return null;
  const size = (x: unknown) => x === null || (typeof x === 'number' && Number.isFinite(x) && x >= 0);
  if (!size(v.minSize) || !size(v.maxSize)) return null;
  return { patterns: v.patterns, extensions: v.extensions, minSize: v.minSize ?? null, maxSize: v.maxSize ?? null };
}

/**
 * The documents left out of the marks and the plan: those the person said are not duplicates, and those
 * an exclusion rule matches (core/documents/exclusions.ts, the CLI's --exclude matcher).
 */
export function leftOut(ignored: ReadonlySet<number>, exclusions: Exclusions, paths: readonly string[], sizes: ArrayLike<number>, members: Int32Array): Set<number> {
  const out = new Set(ignored);
  const none = exclusions.patterns.length === 0 && exclusions.extensions.length === 0 && exclusions.minSize === null && exclusions.maxSize === null;
  if (none) return out;
  const excluded = exclusionMatcher(exclusions);
  for (const d of members) if (!out.has(d) && excluded(paths[d]!, sizes[d]!) !== null) out.add(d);
  return out;
}
