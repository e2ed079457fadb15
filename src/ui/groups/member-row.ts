/** What a group list row says about one member: its figures and its accessible name (plain data, no React). */
import { UNKNOWN_DISTANCE } from '../../core/groups/group-table.ts';
import { similarityEstimate } from '../../core/simhash/fingerprint64.ts';
import { displayName } from '../shared/display-name.ts';
import { formatSize } from '../shared/format-size.ts';
import type { GroupView } from './group-view.ts';

/** Per-document and per-slot marks the list shows beside the groups (each absent when there are none). */
export interface MemberMarks {
  /** Per member slot, 1 when the member's text is identical to its reference's. */
  identical?: Uint8Array;
  /** Per document, how many of its near-duplicates lie outside its group. */
  outside?: Uint32Array;
  /** Per document, the documents it was marked "not duplicates of each other" with. */
  separated?: ReadonlyMap<number, readonly number[]>;
}

/** One member row's content. */
export interface MemberRow {
  doc: number;
  path: string;
  isRef: boolean;
  /** Same text as the reference (after normalization). */
  same: boolean;
  /** Distance to the reference, or null when only the Jaccard is known. */
  distance: number | null;
  jaccard: number;
  size: string;
  /** Near-duplicates of this document in other groups. */
  elsewhere: number;
  /** Marked "not duplicates of each other" with members of its group, and their display names. */
  apart: boolean;
  apartFrom: string;
  /** The option's accessible name. */
  label: string;
}

/** The members of group `g` among `partners` (a member's "not duplicates of each other" marks shown in its group). */
function partnersInGroup(table: GroupView, g: number, partners: readonly number[] | undefined): number[] {
  if (!partners) return [];
  const out: number[] = [];
  for (let s = table.offsets[g]; s < table.offsets[g + 1]; s++) if (partners.includes(table.members[s])) out.push(table.members[s]);
  return out;
}

/** The row of member slot `s` of group `g`. */
export function memberRow(
  table: GroupView,
  g: number,
  s: number,
  paths: readonly string[],
  sizes: ArrayLike<number> | undefined,
  marks: MemberMarks,
): MemberRow {
  const isRef = s === table.offsets[g];
  const d = table.distanceToReference[s];
  const distance = d === UNKNOWN_DISTANCE ? null : d;
  const jaccard = table.jaccardToReference[s];
  const doc = table.members[s];
  const path = paths[doc];
  const shownPath = displayName(path);
  const same = !isRef && marks.identical?.[s] === 1;
  const elsewhere = marks.outside?.[doc] ?? 0;
  const apart = isRef ? [] : partnersInGroup(table, g, marks.separated?.get(doc));
  const apartFrom = apart.map((p) => displayName(paths[p])).join(', ');
  const label =
    (isRef
      ? `${shownPath}, reference of group ${g + 1}`
      : same
        ? `${shownPath}, identical to the reference`
        : distance !== null
          ? `${shownPath}, distance ${distance}, similarity ${similarityEstimate(distance).toFixed(3)}`
          : `${shownPath}, Jaccard ${jaccard.toFixed(2)}`) +
    (elsewhere > 0 ? `, ${elsewhere} more near-duplicate${elsewhere === 1 ? '' : 's'} in other groups` : '') +
    (apart.length > 0 ? `, not duplicates of each other with ${apartFrom}` : '');
  return { doc, path, isRef, same, distance, jaccard, size: sizes ? formatSize(sizes[doc]) : '', elsewhere, apart: apart.length > 0, apartFrom, label };
}
