/**
 * Chaining checks of the components that are not cliques (`--groups components`): the ingest workers
 * measure each member against its group's reference. Part of the one near-duplicate stage
 * (near-duplicate-search.ts).
 */
import { transfer } from 'comlink';
import { CHAIN_UNKNOWN } from '../core/groups/components.ts';
import type { ChainJob } from '../workers/ingest-protocol.ts';
import type { ScanWorkers } from '../workers/scan-workers.ts';
import type { SearchCorpus } from './search-corpus.ts';
import type { ScanResult } from './scan-result.ts';
import { CHUNK_DOCS, contentsReadable, loadChunk } from './verify-candidates.ts';

/** Components larger than this are not checked for chaining (CHAIN_UNKNOWN): the check reads every member. */
const MAX_CHAIN_MEMBERS = 64;

/**
 * Chaining checks of the components that are not cliques, in the ingest workers (they re-read the
 * members). Components of more than MAX_CHAIN_MEMBERS are left CHAIN_UNKNOWN. Fills the table's
 * missing Jaccards to the reference as a side effect.
 */
export async function checkChaining(
  workers: ScanWorkers,
  signal: AbortSignal,
  corpus: SearchCorpus,
  grouped: { verified: ScanResult['verified']; groups: ScanResult['groups']; unchecked: Uint8Array },
  threshold: number,
): Promise<Uint8Array> {
  const { groups, verified, unchecked } = grouped;
  const status = new Uint8Array(groups.count);
  // Verified pairs by group, so a job carries only its own pairs.
  const pairsOf = new Map<number, number[]>();
  for (let p = 0; p < verified.count; p++) {
    const g = groups.groupOf[verified.a[p]];
    if (g < 0 || !unchecked[g] || g !== groups.groupOf[verified.b[p]]) continue;
    let list = pairsOf.get(g);
    if (!list) pairsOf.set(g, (list = []));
    list.push(p);
  }
  const tasks: Promise<void>[] = [];
  let jobGroups: number[] = [];
  const dispatch = () => {
    if (jobGroups.length === 0) return;
    const groupIds = jobGroups;
    jobGroups = [];
    const items: number[] = [];
    const offsets = new Int32Array(groupIds.length + 1);
    const members: number[] = [];
    const local = new Map<number, number>();
    const pa: number[] = [];
    const pb: number[] = [];
    const pd: number[] = [];
    const pj: number[] = [];
    groupIds.forEach((g, i) => {
      for (let s = groups.offsets[g]; s < groups.offsets[g + 1]; s++) {
        const d = groups.members[s];
        local.set(d, items.length);
        members.push(items.length);
        items.push(d);
      }
      offsets[i + 1] = members.length;
      for (const p of pairsOf.get(g) ?? []) {
        pa.push(local.get(verified.a[p])!);
        pb.push(local.get(verified.b[p])!);
        pd.push(verified.distance[p]);
        pj.push(verified.jaccard[p]);
      }
    });
    const job: ChainJob = {
      offsets,
      members: Int32Array.from(members),
      pairs: { a: Uint32Array.from(pa), b: Uint32Array.from(pb), distance: Uint8Array.from(pd), jaccard: Float32Array.from(pj), count: pa.length },
    };
    tasks.push(
      loadChunk(corpus, items, workers)
        .then((loaded) =>
          workers.ingest.run(signal, (api) => api.chainGroups(transfer(loaded.items, loaded.buffers), job, corpus.settings, threshold, undefined, loaded.kept)),
        )
        .then((r) => {
          groupIds.forEach((g, i) => {
            status[g] = r.status[i];
            for (let s = 0; s < groups.offsets[g + 1] - groups.offsets[g]; s++) {
              const value = r.jaccardToReference[offsets[i] + s];
              if (!Number.isNaN(value)) groups.jaccardToReference[groups.offsets[g] + s] = value;
            }
          });
        }),
    );
  };
  let jobDocs = 0;
  for (let g = 0; g < groups.count; g++) {
    if (!unchecked[g]) continue;
    const size = groups.offsets[g + 1] - groups.offsets[g];
    let readable = true;
    for (let s = groups.offsets[g]; s < groups.offsets[g + 1] && readable; s++) readable = contentsReadable(corpus.docs, groups.members[s]);
    if (size > MAX_CHAIN_MEMBERS || !readable) {
      status[g] = CHAIN_UNKNOWN;
      continue;
    }
    jobGroups.push(g);
    jobDocs += size;
    if (jobDocs >= CHUNK_DOCS) {
      dispatch();
      jobDocs = 0;
    }
  }
  dispatch();
  await Promise.all(tasks);
  return status;
}
