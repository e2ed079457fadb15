/**
 * `simsift pairs --engine duckdb`: the permuted-table search as SQL (core/index/pairs-sql.ts) run by
 * DuckDB through @duckdb/node-api, with DuckDB's memory limit and spilling to a temporary directory,
 * so the fingerprints and the pairs need not fit in this process's memory. Reads the Parquet export
 * directly, or fingerprints parsed from text.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { binomial } from '../core/index/block-layout.ts';
import { ESTIMATE_BUDGET, estimateFromSample, estimateStride } from '../core/index/pair-estimate.ts';
import { SIGNED_FINGERPRINT, chooseSqlBlocks, pairsQueries } from '../core/index/pairs-sql.ts';
import { TooManyPairsError, UsageError } from './cli-common.ts';

/** Where the fingerprints come from: a Parquet file (read by its real path; `name` as given, for messages), or halves parsed here. */
export type DuckdbSource = { parquet: string; name?: string } | { hi: Uint32Array; lo: Uint32Array; rows: Uint32Array | null };

export interface DuckdbPairsOptions {
  k: number;
  /** Blocks m; chosen by `chooseSqlBlocks` when absent; 0 compares all pairs. */
  blocks?: number;
  /** DuckDB's memory_limit, e.g. '512MB' (default: DuckDB's, 80% of RAM). */
  memoryLimit?: string;
  /** DuckDB worker threads (default: DuckDB's, all cores). */
  threads?: number;
  /** Refuse (before searching, from an estimate; and while searching, from the count) above this many pairs. */
  maxPairs: number;
  /** Parquet source: also stream each pair's two paths (DuckDB joins them from the file). */
  paths?: boolean;
}

/** What a run did, for the summary line. */
export interface DuckdbPairsRun {
  n: number;
  blocks: number;
  tables: number;
  pairs: number;
  estimate: number | null;
  loadSeconds: number;
  estimateSeconds: number;
  searchSeconds: number;
}

/** Sorted pairs as they stream out of DuckDB, a chunk at a time (with their paths when asked for). */
export type PairChunkSink = (
  a: Uint32Array,
  b: Uint32Array,
  distance: Uint8Array,
  count: number,
  paths?: { a: string[]; b: string[] },
) => Promise<void>;


const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;
/**
 * A file name as DuckDB's file functions read it: they expand `*`, `?` and `[...]` as a glob, so each
 * is put in a class of its own (`fp*.parquet` -> `fp[*].parquet`) and the name reads that one file.
 */
const fileName = (path: string) => quote(path.replace(/[*?[]/g, '[$&]'));

/**
 * Runs the search in a fresh in-memory DuckDB that spills to its own temporary directory (removed
 * afterwards), one INSERT per permuted table, then streams the pairs ordered by (i, j) to `sink`.
 */
export async function duckdbPairs(source: DuckdbSource, options: DuckdbPairsOptions, sink: PairChunkSink): Promise<DuckdbPairsRun> {
  const spill = mkdtempSync(join(tmpdir(), 'simsift-duckdb-'));
  // Never an extension fetched or loaded behind our back (an `s3://` name would install httpfs).
  const config: Record<string, string> = {
    temp_directory: spill,
    preserve_insertion_order: 'false',
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
  };
  if (options.memoryLimit) config.memory_limit = options.memoryLimit;
  if (options.threads) config.threads = String(options.threads);
  let instance: DuckDBInstance | null = null;
  let connection: DuckDBConnection | null = null;
  try {
    try {
      instance = await DuckDBInstance.create(':memory:', config);
    } catch (error) {
      throw new UsageError(`DuckDB refused its settings: ${error instanceof Error ? error.message : String(error)}`);
    }
    connection = await instance.connect();
    // The file named and the spill folder are all DuckDB may touch: no other path, no URL, no network,
    // and the settings locked so no later statement can lift that.
    if ('parquet' in source) source = { parquet: realpathSync(source.parquet), name: source.name ?? source.parquet };
    // Allowed as DuckDB is asked for it (glob characters bracketed) and as the one file that matches.
    const allowed = 'parquet' in source ? `${fileName(source.parquet)}, ${quote(source.parquet)}` : '';
    await connection.run(
      `SET allowed_paths = [${allowed}]; SET allowed_directories = [${quote(spill)}]; SET enable_external_access = false; SET lock_configuration = true`,
    );
    const loadStart = performance.now();
    const n = await load(connection, source);
    const loadSeconds = (performance.now() - loadStart) / 1000;

    const { k, maxPairs } = options;
    const blocks = options.blocks ?? chooseSqlBlocks(n, k);
    let estimate: number | null = null;
    const estimateStart = performance.now();
    if (n * (n - 1) / 2 > maxPairs) {
      estimate = await estimatePairs(connection, n, k);
      if (estimate > maxPairs) throw tooMany(`about ${estimate.toLocaleString('en')} pairs within k=${k} (estimated from a sample)`, maxPairs);
    }

    const estimateSeconds = (performance.now() - estimateStart) / 1000;
    const searchStart = performance.now();
    await connection.run('CREATE TABLE simsift_pairs (i UINTEGER, j UINTEGER, distance UTINYINT)');
    const queries = pairsQueries(k, blocks);
    let pairs = 0;
    for (const query of queries) {
      const result = await connection.run(`INSERT INTO simsift_pairs ${query}`);
      pairs += Number(result.rowsChanged);
      // The estimate can miss clusters the sample did not hit: stop as soon as the count passes the bound.
      if (pairs > maxPairs) throw tooMany(`more than ${maxPairs.toLocaleString('en')} pairs within k=${k} (stopped counting)`, maxPairs);
    }
    const withPaths = Boolean(options.paths) && 'parquet' in source;
    if (withPaths && 'parquet' in source) {
      await connection.run(`CREATE TABLE simsift_paths AS SELECT file_row_number::UINTEGER AS i, path FROM read_parquet(${fileName(source.parquet)}, file_row_number = true)`);
    }
    const result = await connection.stream(
      withPaths
        ? 'SELECT p.i, p.j, p.distance, a.path, b.path FROM simsift_pairs p JOIN simsift_paths a ON a.i = p.i JOIN simsift_paths b ON b.i = p.j ORDER BY p.i, p.j'
        : 'SELECT i, j, distance FROM simsift_pairs ORDER BY i, j',
    );
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      const count = chunk.rowCount;
      const a = new Uint32Array(count);
      const b = new Uint32Array(count);
      const d = new Uint8Array(count);
      const va = chunk.getColumnVector(0);
      const vb = chunk.getColumnVector(1);
      const vd = chunk.getColumnVector(2);
      for (let r = 0; r < count; r++) {
        a[r] = va.getItem(r) as number;
        b[r] = vb.getItem(r) as number;
        d[r] = vd.getItem(r) as number;
      }
      if (withPaths) {
        const pa = chunk.getColumnVector(3);
        const pb = chunk.getColumnVector(4);
        const paths = { a: new Array<string>(count), b: new Array<string>(count) };
        for (let r = 0; r < count; r++) {
          paths.a[r] = String(pa.getItem(r) ?? '');
          paths.b[r] = String(pb.getItem(r) ?? '');
        }
        await sink(a, b, d, count, paths);
      } else {
        await sink(a, b, d, count);
      }
    }
    const searchSeconds = (performance.now() - searchStart) / 1000;
    return { n, blocks, tables: blocks === 0 ? 1 : binomial(blocks, k), pairs, estimate, loadSeconds, estimateSeconds, searchSeconds };
  } finally {
    connection?.closeSync();
    instance?.closeSync();
    rmSync(spill, { recursive: true, force: true });
  }
}

function tooMany(what: string, maxPairs: number): TooManyPairsError {
  return new TooManyPairsError(
    `${what}, over --max-pairs ${maxPairs.toLocaleString('en')}: lower --k, or raise --max-pairs if the output may be that large`,
  );
}

/** Loads `simsift_fp(i, fp)`: i the row number, fp the 64 bits as a signed BIGINT. Returns the fingerprint count. */
async function load(connection: DuckDBConnection, source: DuckdbSource): Promise<number> {
  if ('parquet' in source) {
    try {
      await connection.run(
        `CREATE TABLE simsift_fp AS SELECT file_row_number::UINTEGER AS i, ${SIGNED_FINGERPRINT} AS fp
         FROM read_parquet(${fileName(source.parquet)}, file_row_number = true) WHERE fingerprint IS NOT NULL`,
      );
    } catch (error) {
      throw new UsageError(`${source.name ?? source.parquet}: DuckDB cannot read its fingerprint column (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
    }
  } else {
    // Halves as two UINTEGERs (no BigInt per row); DuckDB joins them into the signed 64 bits.
    await connection.run('CREATE TABLE simsift_halves (i UINTEGER, hi UINTEGER, lo UINTEGER)');
    const appender = await connection.createAppender('simsift_halves');
    const { hi, lo, rows } = source;
    for (let r = 0; r < hi.length; r++) {
      appender.appendUInteger(rows ? rows[r] : r);
      appender.appendUInteger(hi[r]);
      appender.appendUInteger(lo[r]);
      appender.endRow();
    }
    appender.closeSync();
    await connection.run(
      `CREATE TABLE simsift_fp AS SELECT i, CAST(CASE WHEN hi >= 2147483648 THEN (hi::BIGINT - 4294967296) * 4294967296 + lo ELSE hi::BIGINT * 4294967296 + lo END AS BIGINT) AS fp FROM simsift_halves;
       DROP TABLE simsift_halves`,
    );
  }
  const count = await connection.runAndReadAll('SELECT count(*)::BIGINT FROM simsift_fp');
  return Number(count.getRows()[0][0]);
}

/**
 * `estimatePairCount`'s estimate, computed by DuckDB: every stride-th fingerprint against all, with a
 * tenth of its budget (at least 4 samples): DuckDB's bit_count costs ~25 ns. A sample that misses a
 * cluster underestimates; the count after each table's INSERT is the second guard.
 */
async function estimatePairs(connection: DuckDBConnection, n: number, k: number): Promise<number> {
  const stride = estimateStride(n, ESTIMATE_BUDGET / 10, 4);
  const reader = await connection.runAndReadAll(
    `WITH s AS (SELECT fp, row_number() OVER (ORDER BY i) - 1 AS r FROM simsift_fp QUALIFY r % ${stride} = 0)
     SELECT (SELECT count(*) FROM s)::BIGINT AS sampled,
            (SELECT count(*) FROM s JOIN simsift_fp AS f ON bit_count(xor(s.fp, f.fp)) <= ${k})::BIGINT - (SELECT count(*) FROM s)::BIGINT AS matches`,
  );
  const [sampled, matches] = reader.getRows()[0].map((v) => Number(v));
  return estimateFromSample(matches, sampled, n);
}
