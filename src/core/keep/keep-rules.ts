/**
 * Owns the keep rules: which document of each duplicate group is kept, and which of the others are
 * marked for removal, by an ordered list of rules the person edits. Pure: the app, the plan export and
 * `simsift scan --plan` all decide through `decideKeep`, so they cannot disagree.
 *
 * A near-duplicate is a different text: it is never marked by the rule for exact copies. Only documents
 * whose text is identical to the group's kept file are marked `remove` by default; near-duplicates are
 * `review` unless the person asks to mark them too (`markNear`).
 */

/** A rule the person can order. `reference` (today's reference rule) and `path-order` always follow them. */
export type KeepRuleKind = 'protected' | 'newest' | 'oldest' | 'shortest-path' | 'longest-path' | 'largest' | 'smallest';

/** Every rule kind a person can pick, in the order the app offers them. */
export const KEEP_RULE_KINDS: readonly KeepRuleKind[] = ['protected', 'newest', 'oldest', 'shortest-path', 'longest-path', 'largest', 'smallest'];

/** Why a document got its role: the rule that decided, or the person's own mark. */
export type KeepReason =
  | KeepRuleKind
  | 'reference'
  | 'path-order'
  | 'near-duplicate'
  | 'copy-of-review'
  | 'marked'
  | 'unmarked'
  | 'kept-in-another-group'
  | 'ignored';

/** What happens to a document: kept, moved away (quarantine), or left for the person to look at. */
export type KeepRole = 'keep' | 'remove' | 'review';

/** The rules as the person set them (saved by the app, given as options to the CLI). */
export interface KeepRules {
  /** The person's rules, most important first; each kind at most once. */
  order: KeepRuleKind[];
  /** Folders whose documents are all kept (`protected` rule), '/'-separated, as the paths show them. */
  protectedFolders: string[];
  /** Also mark near-duplicates (different texts) for removal; off by default. */
  markNear: boolean;
}

/** Today's behaviour: the group's reference is kept, exact copies marked, near-duplicates to review. */
export const DEFAULT_KEEP_RULES: KeepRules = { order: [], protectedFolders: [], markNear: false };

/** The documents a decision needs, by doc id. */
export interface KeepDocs {
  paths: readonly string[];
  sizes: ArrayLike<number>;
  /** Modification time, ms since the epoch; 0 when unknown (never preferred by newest or oldest). */
  modified?: ArrayLike<number>;
}

/** The groups a decision is made over (a DuplicateRelation's groups and exact classes). */
export interface KeepGroups {
  groups: { count: number; offsets: Int32Array; members: Int32Array };
  /** Per document: its exact class (same normalized text), -1 when in none. */
  classOf: Int32Array;
}

/** Role codes of `KeepDecision.role` and `docRole`. */
export const ROLE_KEEP = 0;
export const ROLE_REMOVE = 1;
export const ROLE_REVIEW = 2;
const ROLE_NAMES: readonly KeepRole[] = ['keep', 'remove', 'review'];

/** The role name of a role code. */
export function roleName(code: number): KeepRole {
  return ROLE_NAMES[code]!;
}

/** Per group and per member slot: who is kept, each slot's role and why, and each document's final role. */
export interface KeepDecision {
  /** Per group: the kept file the others are measured against. */
  keeper: Int32Array;
  /** Per member slot: ROLE_* code (the document's final role, the same in every group it is in). */
  role: Uint8Array;
  /** Per member slot: why. */
  reason: KeepReason[];
  /** Per member slot: 1 when the document's text is identical to its group's kept file (the kept file itself included). */
  identical: Uint8Array;
  /** Per document: ROLE_* code, or 255 for a document in no group. */
  docRole: Uint8Array;
  /** Documents marked remove, and their bytes: what the marks would free. */
  removeFiles: number;
  removeBytes: number;
}

/** Normalizes a folder as the rules compare it: '/'-separated, no leading './' or '/', no trailing '/'. */
export function normalizeFolder(folder: string): string {
  return folder.replaceAll('\\', '/').replace(/^(\.\/)+/, '').replace(/^\/+/, '').replace(/\/+$/, '');
}

/** Whether `path` lies under one of `folders` (normalized). */
export function isProtected(path: string, folders: readonly string[]): boolean {
  for (const f of folders) if (f !== '' && (path === f || path.startsWith(f + '/'))) return true;
  return false;
}

/**
 * The protected folders (normalized) under which none of `paths` lies: a typo, a folder written with
 * another case, or an absolute path would protect nothing, so the CLI and the app name them as errors.
 */
export function unmatchedFolders(paths: readonly string[], folders: readonly string[]): string[] {
  const wanted = new Set(folders.map(normalizeFolder));
  const left = new Set(wanted);
  // Each path's folders, shortest first: one pass over the paths, whatever the number of folders.
  for (const path of paths) {
    if (left.size === 0) break;
    for (let at = path.indexOf('/'); at >= 0; at = path.indexOf('/', at + 1)) left.delete(path.slice(0, at));
    left.delete(path);
  }
  return [...wanted].filter((f) => left.has(f));
}

/**
 * Compares documents a and b of one group by one rule: negative when a is preferred (kept first),
 * positive when b is, 0 when the rule cannot tell them apart. An unknown time (0) is never preferred.
 */
function compareBy(rule: KeepRuleKind | 'reference', a: number, b: number, docs: KeepDocs, rules: KeepRules, referenceRank: (d: number) => number): number {
  switch (rule) {
    case 'protected':
      return Number(isProtected(docs.paths[b]!, rules.protectedFolders)) - Number(isProtected(docs.paths[a]!, rules.protectedFolders));
    case 'newest':
    case 'oldest': {
      const unknown = rule === 'newest' ? -Infinity : Infinity;
      const ta = docs.modified?.[a] || unknown;
      const tb = docs.modified?.[b] || unknown;
      return ta === tb ? 0 : (rule === 'newest' ? tb > ta : ta > tb) ? 1 : -1;
    }
    case 'shortest-path':
      return docs.paths[a]!.length - docs.paths[b]!.length;
    case 'longest-path':
      return docs.paths[b]!.length - docs.paths[a]!.length;
    case 'largest':
      return docs.sizes[b]! - docs.sizes[a]!;
    case 'smallest':
      return docs.sizes[a]! - docs.sizes[b]!;
    case 'reference':
      return referenceRank(a) - referenceRank(b);
  }
}

/** Path order, the last tie-break: something the person can see, never the order files arrived in. */
function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Decides every group: the kept file is the member the rules put first (the person's rules in order,
 * then the reference rule — the group's reference, then its identical copies — then path order). Every
 * other member under a protected folder is kept too; a member identical to the kept file is `remove`;
 * a near-duplicate is `review` (or `remove` with `markNear`), except that of several identical copies of
 * one near-duplicate text only the one the rules prefer is left to review, the others are `remove`
 * (`copy-of-review`): whatever the rule, one copy of each text stays and no copy is kept twice. `marks`
 * are the person's own toggles by document (true: remove, false: do not remove); a kept file is never
 * removed. `ignored` documents ("not a duplicate") take no part: never kept, never removed, reason
 * `ignored`. A document in several groups gets one role: keep wins over remove, remove over review.
 */
export function decideKeep(
  input: KeepGroups,
  docs: KeepDocs,
  rules: KeepRules,
  marks?: ReadonlyMap<number, boolean>,
  ignored?: ReadonlySet<number>,
): KeepDecision {
  const { groups, classOf } = input;
  const slots = groups.members.length;
  const keeper = new Int32Array(groups.count);
  const role = new Uint8Array(slots);
  const reason = new Array<KeepReason>(slots);
  const identical = new Uint8Array(slots);
  const order: (KeepRuleKind | 'reference')[] = [...rules.order, 'reference'];
  const folders = rules.protectedFolders.map(normalizeFolder).filter((f) => f !== '');
  const effective: KeepRules = { ...rules, protectedFolders: folders };
  const protecting = rules.order.includes('protected');
  for (let g = 0; g < groups.count; g++) {
    const first = groups.offsets[g]!;
    const end = groups.offsets[g + 1]!;
    const ref = groups.members[first]!;
    const referenceRank = (d: number) => (d === ref ? 0 : classOf[d] === classOf[ref] && classOf[d] >= 0 ? 1 : 2);
    /** The rule that puts a before b, or null when none does (then path order decides). */
    const decider = (a: number, b: number): { rule: KeepReason; sign: number } => {
      for (const rule of order) {
        const c = compareBy(rule, a, b, docs, effective, referenceRank);
        if (c !== 0) return { rule, sign: c };
      }
      return { rule: 'path-order', sign: comparePaths(docs.paths[a]!, docs.paths[b]!) };
    };
    const out = (d: number) => ignored !== undefined && ignored.has(d);
    let best = -1;
    for (let s = first; s < end; s++) {
      const d = groups.members[s]!;
      if (!out(d) && (best < 0 || decider(d, best).sign < 0)) best = d;
    }
    keeper[g] = best < 0 ? ref : best;
    // The kept file's reason: the rule that put it before the runner-up.
    let keptReason: KeepReason = 'path-order';
    let runnerUp = -1;
    for (let s = first; s < end; s++) {
      const d = groups.members[s]!;
      if (d !== best && !out(d) && (runnerUp < 0 || decider(d, runnerUp).sign < 0)) runnerUp = d;
    }
    if (best >= 0 && runnerUp >= 0) keptReason = decider(best, runnerUp).rule;
    // Per exact class of a near-duplicate text: the copy left to review (the one the rules prefer).
    const reviewed = new Map<number, number>();
    if (!rules.markNear && best >= 0) {
      for (let s = first; s < end; s++) {
        const d = groups.members[s]!;
        const c = classOf[d]!;
        // A copy the person marked for removal is not the one left (they asked for it to go).
        if (c < 0 || c === classOf[best] || out(d) || marks?.get(d) === true || (protecting && isProtected(docs.paths[d]!, folders))) continue;
        const held = reviewed.get(c);
        if (held === undefined || decider(d, held).sign < 0) reviewed.set(c, d);
      }
    }
    for (let s = first; s < end; s++) {
      const d = groups.members[s]!;
      const same = d === best || (best >= 0 && classOf[d] >= 0 && classOf[d] === classOf[best]);
      identical[s] = same ? 1 : 0;
      if (out(d)) {
        role[s] = ROLE_REVIEW;
        reason[s] = 'ignored';
        continue;
      }
      const copyOf = reviewed.get(classOf[d]!);
      if (d === best) {
        role[s] = ROLE_KEEP;
        reason[s] = keptReason;
      } else if (protecting && isProtected(docs.paths[d]!, folders)) {
        role[s] = ROLE_KEEP;
        reason[s] = 'protected';
      } else if (same || rules.markNear) {
        role[s] = ROLE_REMOVE;
        reason[s] = decider(best, d).rule;
      } else if (copyOf !== undefined && copyOf !== d) {
        role[s] = ROLE_REMOVE;
        reason[s] = marks?.get(d) === true ? 'marked' : 'copy-of-review';
      } else {
        role[s] = ROLE_REVIEW;
        reason[s] = 'near-duplicate';
      }
      const mark = marks?.get(d);
      if (role[s] !== ROLE_KEEP && mark !== undefined) {
        if (mark && role[s] !== ROLE_REMOVE) {
          role[s] = ROLE_REMOVE;
          reason[s] = 'marked';
        } else if (!mark && role[s] === ROLE_REMOVE) {
          role[s] = ROLE_REVIEW;
          reason[s] = 'unmarked';
        }
      }
    }
  }
  // One role per document: keep > remove > review (a document kept in one group is never removed in another).
  const n = docs.paths.length;
  const docRole = new Uint8Array(n).fill(255);
  const rank = (r: number) => (r === ROLE_KEEP ? 0 : r === ROLE_REMOVE ? 1 : r === ROLE_REVIEW ? 2 : 3);
  for (let s = 0; s < slots; s++) {
    const d = groups.members[s]!;
    if (rank(role[s]!) < rank(docRole[d]!)) docRole[d] = role[s]!;
  }
  for (let s = 0; s < slots; s++) {
    const d = groups.members[s]!;
    if (role[s] !== docRole[d]) {
      // Kept in another group: never removed; removed in another: that group says why.
      reason[s] = docRole[d] === ROLE_KEEP ? 'kept-in-another-group' : reason[s]!;
      role[s] = docRole[d]!;
    }
  }
  let removeFiles = 0;
  let removeBytes = 0;
  for (let d = 0; d < n; d++) {
    if (docRole[d] !== ROLE_REMOVE) continue;
    removeFiles++;
    removeBytes += docs.sizes[d]!;
  }
  return { keeper, role, reason, identical, docRole, removeFiles, removeBytes };
}

/**
 * The rules from their text form, for the CLI and the saved settings: `--keep newest,protected,...`
 * order and `--protect FOLDER` folders. Throws an Error naming what is wrong.
 */
export function parseKeepOrder(text: string): KeepRuleKind[] {
  const order: KeepRuleKind[] = [];
  for (const part of text.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
    if (!(KEEP_RULE_KINDS as readonly string[]).includes(part)) {
      throw new Error(`unknown keep rule ${JSON.stringify(part)} (one of ${KEEP_RULE_KINDS.join(', ')})`);
    }
    if (order.includes(part as KeepRuleKind)) throw new Error(`keep rule ${JSON.stringify(part)} given twice`);
    order.push(part as KeepRuleKind);
  }
  return order;
}

/** Checks a value read back from storage or a file; returns it as KeepRules, or null when it is not one. */
export function asKeepRules(value: unknown): KeepRules | null {
  if (value === null || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  if (!Array.isArray(v.order) || !Array.isArray(v.protectedFolders) || typeof v.markNear !== 'boolean') return null;
  try {
    const order = parseKeepOrder(v.order.map(String).join(','));
    if (order.length !== v.order.length) return null;
    if (!v.protectedFolders.every((f) => typeof f === 'string')) return null;
    return { order, protectedFolders: v.protectedFolders as string[], markNear: v.markNear };
  } catch {
    return null;
  }
}
