/**
 * `npm run bench -- check [--n 1000000] [--runs 30] [--k 12]`: "Check files against the corpus" for one
 * dropped file against an n-document corpus held in memory (as after a restore): the file is
 * fingerprinted by the ingest worker's API (called directly, in Node), exact copies are found by
 * content hash, near candidates by a linear popcount scan over hi/lo, and each candidate is verified by
 * exact Jaccard against its stored text. A near-duplicate and an exact copy are planted at random positions.
 */
import { checkFile, nearCandidates } from '../src/scan/check-against-corpus.ts';
import type { ScanDocs } from '../src/scan/scan-result.ts';
import { ingestApi } from '../src/workers/ingest-api.ts';
import { DocStatus } from '../src/workers/ingest-protocol.ts';
import { createFingerprinter } from '../src/core/simhash/fingerprinter.ts';
import { DEFAULT_SETTINGS } from '../src/core/simhash/settings.ts';
import { DEFAULT_SIMILARITY_THRESHOLD } from '../src/core/quality/defaults.ts';

function arg(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

/** A seeded text of about `words` pseudo-words. */
function text(seed: number, words: number): string {
  let s = seed;
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out.push(`w${(s >>> 8) % 5000}`);
  }
  return out.join(' ');
}

export async function main(args: string[]): Promise<void> {
  const n = arg(args, 'n', 1_000_000);
  const runs = arg(args, 'runs', 30);
  const k = arg(args, 'k', 12);
  const settings = DEFAULT_SETTINGS;
  const encoder = new TextEncoder();
  const ingest = async (name: string, bytes: Uint8Array) => ingestApi.ingestBatch([{ name, bytes: bytes.slice() }], settings, {});

  // The corpus: random fingerprints and hashes, two planted documents with real stored texts.
  let seed = 0x9e3779b9;
  const rand = () => (seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0);
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  const hashHi = new Uint32Array(n);
  const hashLo = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    hi[i] = rand();
    lo[i] = rand();
    hashHi[i] = rand();
    hashLo[i] = rand();
  }
  const empty = new File([], 'x.txt');
  const files = new Array<File>(n).fill(empty);
  const paths = Array.from({ length: n }, (_, i) => `folder/sub/doc${i}.txt`);
  const docs: ScanDocs = {
    count: n,
    paths,
    files,
    sizes: new Float64Array(n),
    status: new Uint8Array(n).fill(DocStatus.ok),
    flags: new Uint8Array(n),
    hi,
    lo,
    words: new Uint32Array(n).fill(800),
    hashHi,
    hashLo,
  };
  const query = text(42, 800);
  const words = query.split(' ');
  for (const at of [100, 400, 700]) words[at] = 'edited';
  const nearText = words.join(' ');
  const nearAt = rand() % n;
  const exactAt = (nearAt + 1 + (rand() % (n - 1))) % n;
  const nearPrint = await ingest('near.txt', encoder.encode(nearText));
  hi[nearAt] = nearPrint.hi[0]!;
  lo[nearAt] = nearPrint.lo[0]!;
  hashHi[nearAt] = nearPrint.hashHi[0]!;
  hashLo[nearAt] = nearPrint.hashLo[0]!;
  files[nearAt] = new File([nearText], 'near.txt');
  const queryBytes = encoder.encode(query);
  const exactPrint = await ingest('copy.txt', queryBytes);
  hi[exactAt] = exactPrint.hi[0]!;
  lo[exactAt] = exactPrint.lo[0]!;
  hashHi[exactAt] = exactPrint.hashHi[0]!;
  hashLo[exactAt] = exactPrint.hashLo[0]!;
  files[exactAt] = new File([query], 'copy.txt');

  const featureSets = createFingerprinter({ ...settings, weights: 'binary' });
  const tools = { ingest, featureSet: (t: string) => featureSets.featureSet(t), threshold: DEFAULT_SIMILARITY_THRESHOLD };
  const totals: number[] = [];
  const scans: number[] = [];
  let last = await checkFile(docs, k, 'query.txt', queryBytes, tools); // warm-up (WASM, JIT)
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    last = await checkFile(docs, k, 'query.txt', queryBytes, tools);
    totals.push(performance.now() - t0);
    const t1 = performance.now();
    nearCandidates(hi, lo, docs.status, DocStatus.ok, exactPrint.hi[0]!, exactPrint.lo[0]!, k, 16);
    scans.push(performance.now() - t1);
  }
  if (last.exact.length !== 1 || last.exact[0] !== paths[exactAt]) throw new Error(`exact copy not found: ${JSON.stringify(last.exact)}`);
  if (!last.near.some((m) => m.path === paths[nearAt])) throw new Error(`near-duplicate not found: ${JSON.stringify(last.near)}`);
  const found = last.near.find((m) => m.path === paths[nearAt])!;
  console.log(`check one file (${queryBytes.length} bytes, ${words.length} words) against ${n.toLocaleString('en')} documents, k = ${k}, ${runs} runs (Node ${process.version}):`);
  console.log(`  whole check   median ${median(totals).toFixed(1)} ms, p90 ${quantile(totals, 0.9).toFixed(1)} ms, max ${Math.max(...totals).toFixed(1)} ms`);
  console.log(`  linear scan   median ${median(scans).toFixed(1)} ms (popcount over hi/lo)`);
  console.log(`  found: exact copy at ${exactAt}; near-duplicate at ${nearAt} (distance ${found.distance}, Jaccard ${found.jaccard?.toFixed(3)}); ${last.near.length} verified near match(es)`);
}
