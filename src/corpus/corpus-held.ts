/**
 * The saved corpus as this page holds it: the settings storage holds, the revision last read (or
 * written by this tab), and the corpus on show with its stored tables. One value, moved only by the
 * pure `heldTransition`; it stands beside the status state (corpus-state.ts) because it means the same
 * in every status once read (a full storage or a failure keeps the corpus on show a resume merges into).
 * Plain data and functions: no storage, DOM or React.
 */

/** A corpus revision read from storage (the meta record's counter; another tab's write moves it). */
export type Revision = number & { readonly __brand: 'Revision' };
export const asRevision = (n: number): Revision => n as Revision;

/** What is on show: nothing, or a corpus `base` and its stored tables (null: none, checks scan linearly). */
export type OnShow<B, T> = { kind: 'none' } | { kind: 'shown'; base: B; tables: T | null };

/** The held corpus; `revision` null: storage never read by this page (any stored revision is news). */
export interface Held<B, T, St> {
  settings: St | null;
  revision: Revision | null;
  on: OnShow<B, T>;
}

/** What happens to the held corpus, as data. */
export type HeldAction<B, T, St> =
  /** The settings read from storage, or saved by this tab (null: none stored, or reset). */
  | { type: 'settings'; settings: St | null }
  /** `base` read from storage with its stored `tables`. */
  | { type: 'loaded'; base: B; tables: T | null }
  /** A corpus this tab made from the one on show (merged with a scan, regrouped): the tables stay. */
  | { type: 'replaced'; base: B }
  /** The stored tables now (written, rebuilt, dropped); only with a corpus on show. */
  | { type: 'tables'; tables: T | null }
  /** Nothing on show (storage empty, cleared or rebuilt); `revision`: the one read with it, when known. */
  | { type: 'emptied'; revision?: Revision }
  /** Storage is at `revision`; `of`: only if that corpus is still the one on show. */
  | { type: 'revision'; revision: Revision; of?: B }
  /** Local data deleted: nothing stored, nothing shown. */
  | { type: 'reset' };

export const NOTHING_HELD = { settings: null, revision: null, on: { kind: 'none' } } as const;

/** The held corpus after `action` (the same object when nothing changes). */
export function heldTransition<B, T, St>(held: Held<B, T, St>, action: HeldAction<B, T, St>): Held<B, T, St> {
  switch (action.type) {
    case 'settings':
      return { ...held, settings: action.settings };
    case 'loaded':
      return { ...held, on: { kind: 'shown', base: action.base, tables: action.tables } };
    case 'replaced':
      return { ...held, on: { kind: 'shown', base: action.base, tables: held.on.kind === 'shown' ? held.on.tables : null } };
    case 'tables':
      return held.on.kind === 'shown' ? { ...held, on: { ...held.on, tables: action.tables } } : held;
    case 'emptied':
      return { ...held, revision: action.revision ?? held.revision, on: { kind: 'none' } };
    case 'revision':
      if (action.of !== undefined && (held.on.kind !== 'shown' || held.on.base !== action.of)) return held;
      return { ...held, revision: action.revision };
    case 'reset':
      return { ...held, settings: null, on: { kind: 'none' } };
  }
}
