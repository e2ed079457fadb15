/**
 * The contained list's rows (src/ui/groups/contained-rows.ts): containers and their contained documents
 * in path order, and a row budget that bounds what the page renders at once (all of /usr/share/doc's
 * 33,770 pairs under 500 containers, 6,300 rows, held the page for over a second).
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { emptyPairs } from '../../../src/core/groups/contained-pairs.ts';
import { byContainer, CONTAINED_ROWS_STEP, shownContainers } from '../../../src/ui/groups/contained-rows.ts';
import { containedCounts } from '../../../src/core/groups/contained-pairs.ts';
import { ContainedList } from '../../../src/ui/groups/ContainedList.tsx';

/** Pairs (inner, outer) as ContainedPairs. */
function pairsOf(list: ReadonlyArray<[number, number]>) {
  const p = emptyPairs(list.length);
  list.forEach(([a, b], i) => ((p.inner[i] = a), (p.outer[i] = b), (p.containment[i] = 1)));
  return p;
}

describe('contained rows', () => {
  it('groups pairs by container, containers and their documents in path order', () => {
    const paths = ['z/whole.txt', 'a/part.txt', 'm/big.txt', 'b/part.txt', 'c/part.txt'];
    const containers = byContainer(pairsOf([[4, 2], [1, 0], [3, 2], [1, 2]]), paths);
    expect(containers.map((c) => ({ outer: paths[c.outer], inner: c.pairs.map((i) => paths[[4, 1, 3, 1][i]!]) }))).toEqual([
      { outer: 'm/big.txt', inner: ['a/part.txt', 'b/part.txt', 'c/part.txt'] },
      { outer: 'z/whole.txt', inner: ['a/part.txt'] },
    ]);
  });

  it('counts documents, not pairs, in its headline: a page inside 3 others is one document (linux-doc showed 31,277 "documents" of 6,368)', () => {
    const paths = ['a', 'b', 'c', 'd', 'e'];
    const contained = pairsOf([[0, 1], [0, 2], [0, 3], [4, 3]]);
    expect(containedCounts(contained)).toEqual({ documents: 2, containers: 3, pairs: 4 });
    const html = renderToStaticMarkup(createElement(ContainedList, { contained, paths, selected: null, onOpenPair: () => {} }));
    expect(html).toContain('2 documents lie inside 3 others (excerpts, or documents with more appended): 4 pairs, as some lie in several');
  });

  it('renders at most the budget of pair rows, cutting the last container, and counts the rest', () => {
    const containers = [
      { outer: 0, pairs: [0, 1, 2] },
      { outer: 1, pairs: [3, 4, 5, 6] },
      { outer: 2, pairs: [7] },
    ];
    expect(shownContainers(containers, 5)).toEqual({
      shown: [
        { outer: 0, pairs: [0, 1, 2], total: 3 },
        { outer: 1, pairs: [3, 4], total: 4 },
      ],
      hiddenPairs: 3,
    });
    expect(shownContainers(containers, 8).hiddenPairs).toBe(0);
    expect(shownContainers(containers, 8).shown.flatMap((c) => c.pairs)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('renders one step of pair rows of a large result, not every pair (before: 6,300 rows of the first 500 containers at once)', () => {
    const list: Array<[number, number]> = [];
    for (let c = 0; c < 1000; c++) for (let k = 0; k < 10; k++) list.push([1000 + list.length, c]);
    const paths = Array.from({ length: 1000 + list.length }, (_, d) => `doc/${String(d).padStart(6, '0')}.txt`);
    const html = renderToStaticMarkup(createElement(ContainedList, { contained: pairsOf(list), paths, selected: null, onOpenPair: () => {} }));
    expect(html.match(/class="ss-contained-row/g)?.length).toBe(CONTAINED_ROWS_STEP);
    expect(html).toContain(`${(list.length - CONTAINED_ROWS_STEP).toLocaleString('en')} more contained pairs not shown`);
    expect(html).toMatch(/<button[^>]*>Show 300 more<\/button>/);
  });

  it('shows a first screenful of a result as large as /usr/share/doc\'s, and every pair after enough "Show more"', () => {
    // 33,770 contained pairs under 3,477 containers, up to 75 in one (the CLI's CSV of that folder).
    const list: Array<[number, number]> = [];
    for (let c = 0; c < 3477; c++) for (let k = 0; k < (c % 75 === 0 ? 75 : 9 + (c % 3)); k++) list.push([100_000 + list.length, c]);
    const paths = Array.from({ length: 100_000 + list.length }, (_, d) => `doc/${String(d).padStart(6, '0')}`);
    const containers = byContainer(pairsOf(list), paths);
    const first = shownContainers(containers, CONTAINED_ROWS_STEP);
    const rows = first.shown.reduce((n, c) => n + c.pairs.length, 0);
    expect(rows).toBe(CONTAINED_ROWS_STEP);
    expect(rows + first.hiddenPairs).toBe(list.length);
    const steps = Math.ceil(list.length / CONTAINED_ROWS_STEP);
    expect(shownContainers(containers, steps * CONTAINED_ROWS_STEP).hiddenPairs).toBe(0);
  });
});
