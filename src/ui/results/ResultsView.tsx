/**
 * A first, plain view of a scan's output: exact-duplicate groups and near-duplicate groups with
 * the Hamming distance of each pair. Shows the largest groups first and says how many more exist.
 */
import { useMemo } from 'react';
import type { GroupList, ScanResult } from '../../scan/scan-result.ts';

export interface ResultsViewProps {
  result: ScanResult;
}

const SHOWN_GROUPS = 100;
const SHOWN_PAIRS_PER_GROUP = 50;
const OK = 1;

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

function members(groups: GroupList, g: number): Uint32Array {
  return groups.members.subarray(groups.start[g], groups.start[g + 1]);
}

/** Summary, exact groups, near groups. */
export function ResultsView({ result }: ResultsViewProps) {
  const { docs, exactGroups, nearGroups, pairs, pairGroup } = result;
  const stats = useMemo(() => {
    let ok = 0;
    let distinct = 0;
    const copies = new Uint32Array(docs.count);
    for (let i = 0; i < docs.count; i++) {
      if (docs.status[i] !== OK) continue;
      ok++;
      const rep = result.representative[i];
      if (rep === i) distinct++;
      if (rep >= 0) copies[rep]++;
    }
    return { ok, distinct, copies };
  }, [docs, result.representative]);
  const shownPairs = useMemo(() => {
    const byGroup: number[][] = Array.from({ length: Math.min(SHOWN_GROUPS, nearGroups.count) }, () => []);
    for (let p = 0; p < pairs.count; p++) {
      const list = byGroup[pairGroup[p]];
      if (list && list.length < SHOWN_PAIRS_PER_GROUP) list.push(p);
    }
    return byGroup;
  }, [pairs, pairGroup, nearGroups.count]);

  const path = (id: number) => docs.paths[id];
  return (
    <section className="results" aria-label="Results">
      <h2>Results</h2>
      {result.partial && <p>The scan was cancelled: these are the files finished before the cancel; no duplicates were searched.</p>}
      <p>
        {stats.ok.toLocaleString('en')} documents compared ({stats.distinct.toLocaleString('en')} distinct texts) ·{' '}
        {exactGroups.count.toLocaleString('en')} exact-duplicate groups · {pairs.count.toLocaleString('en')} near-duplicate pairs within
        distance {result.k} in {nearGroups.count.toLocaleString('en')} groups
      </p>
      <p className="results__timings">
        Reading {seconds(result.timings.readingMs)} (fingerprinting alongside) · fingerprinting the rest {seconds(result.timings.fingerprintingMs)} ·
        indexing {seconds(result.timings.indexingMs)} · grouping {seconds(result.timings.groupingMs)} · total {seconds(result.timings.totalMs)}
      </p>

      <section aria-labelledby="exact-heading">
        <h3 id="exact-heading">Exact duplicates ({exactGroups.count.toLocaleString('en')})</h3>
        {exactGroups.count === 0 ? (
          <p>No two files have the same text.</p>
        ) : (
          <ol className="results__groups" aria-label="Exact-duplicate groups">
            {Array.from({ length: Math.min(SHOWN_GROUPS, exactGroups.count) }, (_, g) => (
              <li key={g} className="results__group">
                <p>{members(exactGroups, g).length} files with identical text</p>
                <ul>
                  {Array.from(members(exactGroups, g), (id) => (
                    <li key={id}>{path(id)}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ol>
        )}
        {exactGroups.count > SHOWN_GROUPS && <p>…and {(exactGroups.count - SHOWN_GROUPS).toLocaleString('en')} more groups.</p>}
      </section>

      <section aria-labelledby="near-heading">
        <h3 id="near-heading">Near duplicates ({nearGroups.count.toLocaleString('en')})</h3>
        {nearGroups.count === 0 ? (
          <p>No near-duplicate texts within distance {result.k}.</p>
        ) : (
          <ol className="results__groups" aria-label="Near-duplicate groups">
            {shownPairs.map((list, g) => (
              <li key={g} className="results__group">
                <p>{members(nearGroups, g).length} similar texts</p>
                <ul>
                  {Array.from(members(nearGroups, g), (id) => (
                    <li key={id}>
                      {path(id)}
                      {stats.copies[id] > 1 && <> (+{stats.copies[id] - 1} identical)</>}
                    </li>
                  ))}
                </ul>
                <table className="results__pairs">
                  <thead>
                    <tr>
                      <th scope="col">File A</th>
                      <th scope="col">File B</th>
                      <th scope="col">Distance</th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((p) => (
                      <tr key={p}>
                        <td>{path(pairs.a[p])}</td>
                        <td>{path(pairs.b[p])}</td>
                        <td>{pairs.distance[p]}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </li>
            ))}
          </ol>
        )}
        {nearGroups.count > SHOWN_GROUPS && <p>…and {(nearGroups.count - SHOWN_GROUPS).toLocaleString('en')} more groups.</p>}
      </section>
    </section>
  );
}
