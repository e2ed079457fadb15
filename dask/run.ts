/**
 * `npm run dask -- FILE [--k K] [--blocks M] [--scheduler tcp://host:8786] [--workers W] [--out FILE] [--paths]`:
 * the permuted-table pair search as a Dask job (dask/simsift_pairs.py), run by Debian's /usr/bin/python3.
 * This script owns what the job must agree on with `simsift pairs`: it lays the tables out with the
 * same code (core/index/block-layout.ts, the SQL engines' block count) and hands them to the job as
 * data, so m, k and the permutations have one source.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parquetMetadata } from 'hyparquet';
import { blockLayout, layoutProblem, type BlockLayout } from '../src/core/index/block-layout.ts';
import { chooseSqlBlocks } from '../src/core/index/pairs-sql.ts';

/** The Python that has Debian's python3-dask, python3-distributed and python3-pandas (not another one first on the PATH). */
export const DASK_PYTHON = process.env.SIMSIFT_DASK_PYTHON ?? '/usr/bin/python3';

/** A layout as the job reads it: 64-bit masks as decimal strings (JSON numbers stop at 2^53). */
export interface DaskLayout {
  k: number;
  blocks: number;
  /** Each block's 64-bit mask, block 0 the most significant bits. */
  blockMasks: string[];
  /** Per table (in `blockLayout` order): the key blocks' mask over the 64 bits, and the must-differ block set (a bit per block). */
  tables: Array<{ key: string; mustDiffer: number }>;
}

/** The tables of `blockLayout(k, blocks)` as data for the job; blocks 0 means brute force (one table keyed on nothing). */
export function daskLayout(k: number, blocks: number): DaskLayout {
  if (blocks === 0) return { k, blocks: 0, blockMasks: [], tables: [{ key: '0', mustDiffer: 0 }] };
  const layout: BlockLayout = blockLayout(k, blocks);
  const mask = (j: number) => (BigInt(layout.maskHi[j]!) << 32n) | BigInt(layout.maskLo[j]!);
  const blockMasks = Array.from({ length: blocks }, (_, j) => mask(j).toString());
  const tables = layout.tables.map((t) => {
    let key = 0n;
    for (let j = 0; j < blocks; j++) if (t.keyMask & (1 << j)) key |= mask(j);
    return { key: key.toString(), mustDiffer: t.mustDiffer };
  });
  return { k, blocks, blockMasks, tables };
}

/** Fingerprint rows in a text file (`simsift fingerprint` output or 16 hex digits a line), for the block count. */
function countRows(bytes: Buffer): number {
  let n = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) n++;
  return bytes.length > 0 && bytes[bytes.length - 1] !== 10 ? n + 1 : n;
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      k: { type: 'string', default: '3' },
      blocks: { type: 'string' },
      scheduler: { type: 'string' },
      workers: { type: 'string', default: '2' },
      out: { type: 'string' },
      paths: { type: 'boolean', default: false },
    },
  });
  if (positionals.length !== 1) throw new Error('usage: npm run dask -- FILE [--k K] [--blocks M] [--scheduler tcp://host:8786] [--workers W] [--out FILE] [--paths]');
  const file = positionals[0]!;
  const k = Number(values.k);
  const bytes = await readFile(file);
  const parquet = bytes.subarray(0, 4).toString('latin1') === 'PAR1';
  // Only the block count needs n here (a Parquet file's is in its footer).
  const n = parquet ? Number(parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)).num_rows) : countRows(bytes);
  const blocks = values.blocks !== undefined ? Number(values.blocks) : chooseSqlBlocks(n, k);
  const problem = blocks === 0 ? null : layoutProblem(k, blocks);
  if (problem) throw new Error(problem);
  const dir = await mkdtemp(join(tmpdir(), 'simsift-dask-'));
  try {
    const layoutFile = join(dir, 'layout.json');
    await writeFile(layoutFile, JSON.stringify(daskLayout(k, blocks)));
    const job = join(dirname(fileURLToPath(import.meta.url)), 'simsift_pairs.py');
    const args = [job, file, '--layout', layoutFile, '--workers', values.workers!];
    if (values.scheduler) args.push('--scheduler', values.scheduler);
    if (values.out) args.push('--out', values.out);
    if (values.paths) args.push('--paths');
    return await new Promise<number>((done, fail) => {
      const child = spawn(DASK_PYTHON, args, { stdio: 'inherit' });
      child.on('error', fail);
      child.on('close', (code) => done(code ?? 1));
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      process.stderr.write(`simsift dask: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 2;
    },
  );
}
