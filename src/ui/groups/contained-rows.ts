/**
 * Owns which contained pairs the page renders at once: containers in path order, each one's contained
 * documents in path order, cut at a row budget a person raises ("Show more"). All 33,770 pairs of
 * /usr/share/doc rendered in one task held the page for over a second; the CSV has every pair.
 */
import type { ContainedPairs } from '../../core/groups/contained-pairs.ts';

/** A container and the indexes (into the pairs) of the documents contained in it. */
export interface Container {
  outer: number;
  pairs: number[];
}

/** A container as shown: its first `pairs` of `total` contained documents (the rest beyond the budget). */
export interface ShownContainer {
  outer: number;
  pairs: number[];
  total: number;
}

/** Pair rows rendered at first, and added by each "Show more". */
export const CONTAINED_ROWS_STEP = 300;

/** Pair indexes grouped by container: containers in path order, each one's contained documents in path order. */
export function byContainer(contained: ContainedPairs, paths: readonly string[]): Container[] {
  const groups = new Map<number, number[]>();
  for (let i = 0; i < contained.count; i++) {
    const list = groups.get(contained.outer[i]);
    if (list) list.push(i);
    else groups.set(contained.outer[i], [i]);
  }
  const byPath = (x: number, y: number) => (paths[x] < paths[y] ? -1 : paths[x] > paths[y] ? 1 : x - y);
  return [...groups.entries()]
    .sort(([x], [y]) => byPath(x, y))
    .map(([outer, pairs]) => ({ outer, pairs: pairs.sort((x, y) => byPath(contained.inner[x], contained.inner[y])) }));
}

/**
 * The containers to render with at most `budget` pair rows in all (at least one row per container
 * shown): the first containers whole, the last one cut where the budget ends. `hiddenPairs` counts the
 * pairs not rendered, for the "Show more" button.
 */
export function shownContainers(containers: readonly Container[], budget: number): { shown: ShownContainer[]; hiddenPairs: number } {
  const shown: ShownContainer[] = [];
  let left = budget;
  let hiddenPairs = 0;
  for (const c of containers) {
    if (left <= 0) {
      hiddenPairs += c.pairs.length;
      continue;
    }
    const take = Math.min(c.pairs.length, left);
    shown.push({ outer: c.outer, pairs: c.pairs.slice(0, take), total: c.pairs.length });
    hiddenPairs += c.pairs.length - take;
    left -= take;
  }
  return { shown, hiddenPairs };
}
