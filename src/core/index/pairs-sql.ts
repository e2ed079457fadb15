/**
 * The permuted-table all-pairs search as SQL: one self-join per table of `blockLayout(k, m)`, on the
 * table's key blocks, keeping pairs within Hamming distance k that this table owns (the same
 * ownership rule as `allPairs`, so each pair comes out once and the union needs no DISTINCT). Also
 * the block count that suits a SQL engine, whose cost per table and per candidate differ from the
 * in-process index.
 *
 * The queries read a relation `simsift_fp(i BIGINT, fp BIGINT)`: i a unique row number, fp the
 * fingerprint's 64 bits as a *signed* BIGINT (two's complement), because Spark and Trino have no
 * unsigned 64-bit type. Dialects differ only in the bit functions:
 *
 * | dialect | xor           | and             | popcount        |
 * | ------- | ------------- | --------------- | --------------- |
 * | duckdb  | xor(a, b)     | a & b           | bit_count(x)    |
 * | spark   | a ^ b         | a & b           | bit_count(x)    |
 * | trino   | bitwise_xor   | bitwise_and     | bit_count(x, 64)|
 */
import { binomial, blockLayout, layoutProblem, MAX_BLOCKS, type BlockLayout } from './block-layout.ts';

/** A SQL dialect the queries are written for. */
export type SqlDialect = 'duckdb' | 'spark' | 'trino';

/** The relation the queries read. */
export const FINGERPRINT_RELATION = 'simsift_fp';

interface Ops {
  xor(a: string, b: string): string;
  and(a: string, b: string): string;
  popcount(x: string): string;
}

const OPS: Record<SqlDialect, Ops> = {
  duckdb: { xor: (a, b) => `xor(${a}, ${b})`, and: (a, b) => `(${a} & ${b})`, popcount: (x) => `bit_count(${x})` },
  spark: { xor: (a, b) => `(${a} ^ ${b})`, and: (a, b) => `(${a} & ${b})`, popcount: (x) => `bit_count(${x})` },
  trino: { xor: (a, b) => `bitwise_xor(${a}, ${b})`, and: (a, b) => `bitwise_and(${a}, ${b})`, popcount: (x) => `bit_count(${x}, 64)` },
};

/** A 64-bit mask as a signed BIGINT literal (the most negative value cannot be written as one literal). */
export function signedLiteral(mask: bigint): string {
  const v = BigInt.asIntN(64, mask);
  return v === -(1n << 63n) ? '(-9223372036854775807 - 1)' : v.toString();
}

/** Block j's 64-bit mask. */
function blockMask(layout: BlockLayout, j: number): bigint {
  return (BigInt(layout.maskHi[j]) << 32n) | BigInt(layout.maskLo[j]);
}

/** Options for the generated queries. */
export interface PairsSqlOptions {
  dialect?: SqlDialect;
  /** The relation to read (default `simsift_fp`). */
  relation?: string;
}

/**
 * One table's query: the pairs (i < j) agreeing on the table's key blocks, within distance k, that
 * this table owns (every block before its last key block that is not a key block differs), as
 * columns i, j, distance.
 */
export function tableQuery(layout: BlockLayout, t: number, options: PairsSqlOptions = {}): string {
  const ops = OPS[options.dialect ?? 'duckdb'];
  const rel = options.relation ?? FINGERPRINT_RELATION;
  const table = layout.tables[t];
  if (!table) throw new RangeError(`table ${t} does not exist (the layout has ${layout.tables.length})`);
  let key = 0n;
  for (let j = 0; j < layout.blocks; j++) if (table.keyMask & (1 << j)) key |= blockMask(layout, j);
  const x = ops.xor('a.fp', 'b.fp');
  const distance = ops.popcount(x);
  const lines = [
    `SELECT a.i AS i, b.i AS j, ${distance} AS distance`,
    `FROM ${rel} AS a JOIN ${rel} AS b`,
    `  ON ${ops.and('a.fp', signedLiteral(key))} = ${ops.and('b.fp', signedLiteral(key))} AND a.i < b.i`,
    `WHERE ${distance} <= ${layout.k}`,
  ];
  for (let j = 0; j < layout.blocks; j++) {
    if (table.mustDiffer & (1 << j)) lines.push(`  AND ${ops.and(x, signedLiteral(blockMask(layout, j)))} <> 0`);
  }
  return lines.join('\n');
}

/** Every pair within k by comparing all pairs (for k beyond any useful layout). */
export function bruteForceQuery(k: number, options: PairsSqlOptions = {}): string {
  const ops = OPS[options.dialect ?? 'duckdb'];
  const rel = options.relation ?? FINGERPRINT_RELATION;
  const distance = ops.popcount(ops.xor('a.fp', 'b.fp'));
  return [
    `SELECT a.i AS i, b.i AS j, ${distance} AS distance`,
    `FROM ${rel} AS a JOIN ${rel} AS b ON a.i < b.i`,
    `WHERE ${distance} <= ${k}`,
  ].join('\n');
}

/**
 * The queries whose union is every pair within k, each pair in exactly one: one per table of
 * `blockLayout(k, blocks)`, or one brute-force query when blocks is 0.
 */
export function pairsQueries(k: number, blocks: number, options: PairsSqlOptions = {}): string[] {
  if (blocks === 0) return [bruteForceQuery(k, options)];
  const problem = layoutProblem(k, blocks);
  if (problem) throw new RangeError(problem);
  const layout = blockLayout(k, blocks);
  return layout.tables.map((_, t) => tableQuery(layout, t, options));
}

/**
 * Estimated seconds for a SQL engine (DuckDB on this project's 2-core machine) to run the queries
 * for n fingerprints: per table, a hash join over all rows (about 100 ns a row, with a 2 ms floor for
 * planning), plus about 100 ns per candidate pair sharing the key (DuckDB's bit_count counts bits one
 * by one, so a candidate costs far more than in the in-process index). Calibrated with DuckDB 1.5:
 * 10M random fingerprints at k=3: m=5 (10 tables) 11.6 s; 100k at k=13: m=17 (2,380 tables) ~38 s.
 * blocks = 0 is the brute-force join (n^2 / 2 candidates).
 */
export function estimateSqlSeconds(n: number, k: number, blocks: number): number {
  const perCandidate = 100e-9;
  if (blocks === 0) return (n * n * perCandidate) / 2;
  const tables = binomial(blocks, k);
  const keyBits = ((blocks - k) * 64) / blocks;
  const candidates = (n * n) / 2 ** (keyBits + 1);
  return tables * (0.002 + n * 100e-9 + candidates * perCandidate);
}

/** The block count with the lowest `estimateSqlSeconds` (m in k+1..MAX_BLOCKS), or 0 when comparing all pairs is cheaper. */
export function chooseSqlBlocks(n: number, k: number): number {
  if (!Number.isInteger(k) || k < 0 || k > 64) throw new RangeError(`k must be an integer in 0..64 (got ${k})`);
  let best = 0;
  let bestCost = estimateSqlSeconds(Math.max(n, 2), k, 0);
  for (let m = k + 1; m <= MAX_BLOCKS; m++) {
    if (layoutProblem(k, m)) continue;
    const cost = estimateSqlSeconds(Math.max(n, 2), k, m);
    if (cost < bestCost) {
      bestCost = cost;
      best = m;
    }
  }
  return best;
}

/** SQL that turns the Parquet export's `fingerprint` (UINT_64) into the signed BIGINT `fp` with the same bits. */
export const SIGNED_FINGERPRINT =
  'CAST(CASE WHEN fingerprint >= 9223372036854775808 THEN fingerprint - 18446744073709551616 ELSE fingerprint END AS BIGINT)';

/**
 * The repository's SQL file for (k, blocks): loads the Parquet export named by the DuckDB variable
 * `fingerprints_file` into `simsift_fp`, runs the union of `pairsQueries` and lists every pair
 * with both paths, ordered by (i, j). DuckDB dialect; the comments say what changes for Spark SQL
 * and Trino.
 */
export function pairsSqlScript(k: number, blocks: number): string {
  const layout = blocks === 0 ? null : blockLayout(k, blocks);
  const queries = pairsQueries(k, blocks);
  const tables = layout ? layout.tables.length : 1;
  const sizes = layout ? Array.from(layout.size).join(', ') : '';
  const header = `-- Every pair of SimSift fingerprints within Hamming distance k = ${k}, each pair once:
-- the permuted-table search of Manku, Jain and Das Sarma as a SQL self-join.
--
-- Generated by src/core/index/pairs-sql.ts (pairsSqlScript(${k}, ${blocks})); \`npm run sql -- --k K\`
-- prints it for another k (the block count is chosen for DuckDB; --blocks M sets it).
--
-- Input: the Parquet file of \`simsift fingerprint DIR --format parquet --out FILE\` (or the app's
-- Export fingerprints). Parameter, a DuckDB variable (default 'fingerprints.parquet'; a glob or an
-- s3:// URL works too, with DuckDB's httpfs):
--   duckdb -cmd "SET VARIABLE fingerprints_file = 'fps.parquet'" < sql/near-duplicate-pairs.sql
-- Output: i, j (0-based row numbers, i < j), distance, path_a, path_b; ordered by i, j.
-- The same pairs as \`simsift pairs FILE --k ${k}\`.
--
-- How: the 64 bits are cut into m = ${blocks} blocks${layout ? ` of ${sizes} bits (from the most significant)` : ''}.
-- Two fingerprints within k bits differ in at most k blocks, so they agree on some m - k blocks:
-- each of the C(m, k) = ${tables} queries below joins on one choice of m - k blocks (the key,
-- a bit mask), keeps pairs within k, and keeps a pair only in the first table whose key it agrees
-- on (every block before the table's last key block that is not a key block must differ), so the
-- UNION ALL has each pair once.
--
-- Dialects: the load (CREATE ... simsift_fp) is DuckDB's; the queries are plain SQL over
-- simsift_fp(i BIGINT, path, fp BIGINT) with fp the 64 bits as a signed BIGINT. For Spark SQL:
-- write a ^ b for xor(a, b), and build simsift_fp with
--   CACHE TABLE simsift_fp AS SELECT monotonically_increasing_id() AS i, path, ${SIGNED_FINGERPRINT} AS fp
--   FROM parquet.\`s3a://bucket/fps/\` WHERE fingerprint IS NOT NULL
-- (Spark reads UINT_64 as DECIMAL(20,0), the CASE maps it to the signed bits; i is then a row id,
-- not a row number). For Trino: bitwise_xor(a, b), bitwise_and(a, m), bit_count(x, 64).
`;
  const load = `SET VARIABLE fingerprints_file = coalesce(getvariable('fingerprints_file'), 'fingerprints.parquet');

-- i numbers the rows of all files in file-name order, counting rows without a fingerprint too
-- (for one file: its row numbers, as simsift pairs prints them).
CREATE OR REPLACE TEMP TABLE ${FINGERPRINT_RELATION} AS
SELECT i, path, fp FROM (
  SELECT row_number() OVER (ORDER BY filename, file_row_number) - 1 AS i, path,
         ${SIGNED_FINGERPRINT} AS fp
  FROM read_parquet(getvariable('fingerprints_file'), filename = true, file_row_number = true)
) WHERE fp IS NOT NULL;
`;
  const union = queries
    .map((q, t) => `  -- table ${t}${layout ? `: key blocks ${blockList(layout.tables[t].keyMask, layout.blocks)}` : ': all pairs'}\n${indent(q, 2)}`)
    .join('\n  UNION ALL\n');
  const select = `SELECT p.i, p.j, p.distance, a.path AS path_a, b.path AS path_b
FROM (
${union}
) AS p
JOIN ${FINGERPRINT_RELATION} AS a ON a.i = p.i
JOIN ${FINGERPRINT_RELATION} AS b ON b.i = p.j
ORDER BY p.i, p.j;
`;
  return `${header}\n${load}\n${select}`;
}

function blockList(mask: number, blocks: number): string {
  const list: number[] = [];
  for (let j = 0; j < blocks; j++) if (mask & (1 << j)) list.push(j);
  return list.join(', ');
}

function indent(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  return text
    .split('\n')
    .map((l) => pad + l)
    .join('\n');
}
