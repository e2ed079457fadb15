/**
 * Reading a pairs file for `simsift scan --pairs`: the Parquet that `simsift pairs --out x.parquet`
 * writes, or any Parquet with the SQL's columns path_a, path_b, distance (DuckDB's COPY, Spark's
 * write.parquet); or the text of `simsift pairs --paths` (`i j distance<TAB>path_a<TAB>path_b`,
 * escaped). Bad input is a UsageError naming the file (and the line).
 */
import { parquetMetadata, parquetRead } from 'hyparquet';
import { recordedSettings } from '../core/export/fingerprints-parquet.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import { PAIR_COLUMNS } from '../core/export/pairs-parquet.ts';
import type { PathPairs } from '../core/index/external-pairs.ts';
import { UsageError } from './cli-common.ts';
import { unescapeName } from './terminal-names.ts';
import { checkCoverage, checkedRowCount } from './parquet-checks.ts';

/** A pairs file's pairs and what its metadata says about how they were found (Parquet only). */
export interface PairsInput extends PathPairs {
  format: 'text' | 'parquet';
  distance: Uint8Array;
  /** Recorded k and settings (`simsift pairs --out x.parquet` writes them; other writers may not). */
  recorded: { k?: number; settings?: SimHashSettings };
}

/** A distance as the file gives it, an integer in 0..64; -1 for anything else. */
function distanceOf(value: unknown): number {
  const d = typeof value === 'bigint' ? Number(value) : value;
  return typeof d === 'number' && Number.isInteger(d) && d >= 0 && d <= 64 ? d : -1;
}

/** A distance as the file gives it: an integer in 0..64. */
function checkedDistance(value: unknown, where: string): number {
  const d = distanceOf(value);
  if (d < 0) throw new UsageError(`${where}: distance must be an integer in 0..64 (got ${JSON.stringify(typeof value === 'bigint' ? String(value) : value)})`);
  return d;
}

/** The path_a, path_b and distance columns of a Parquet pairs file, with its recorded k and settings. */
export async function parsePairsParquet(bytes: Uint8Array, name: string): Promise<PairsInput> {
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  let metadata;
  try {
    metadata = parquetMetadata(file);
  } catch (error) {
    throw new UsageError(`${name}: not a readable Parquet file (${error instanceof Error ? error.message : String(error)})`);
  }
  const columns = new Set(metadata.schema.slice(1).map((e) => e.name));
  const absent = PAIR_COLUMNS.filter((c) => !columns.has(c));
  if (absent.length > 0) {
    throw new UsageError(`${name}: a pairs file needs the columns ${PAIR_COLUMNS.join(', ')}; it has no ${absent.join(', ')} (it has ${[...columns].join(', ')})`);
  }
  const n = checkedRowCount(metadata, bytes.length, { path_a: 'BYTE_ARRAY', path_b: 'BYTE_ARRAY' }, name);
  const chunks = new Map(PAIR_COLUMNS.map((c) => [c as string, [] as { start: number; length: number }[]]));
  let problem: UsageError | undefined;
  const pathA = new Array<string>(n);
  const pathB = new Array<string>(n);
  const distance = new Uint8Array(n);
  try {
    await parquetRead({
      file,
      metadata,
      columns: [...PAIR_COLUMNS],
      onChunk: ({ columnName, columnData, rowStart }) => {
        // Never thrown from here (the decoder does not pass it on): the first problem is kept, thrown once the read ends.
        if (problem) return;
        if (rowStart < 0 || rowStart + columnData.length > n) {
          problem = new UsageError(`${name}: a damaged Parquet file (${columnName} has rows past the ${n} it claims)`);
          return;
        }
        chunks.get(columnName)?.push({ start: rowStart, length: columnData.length });
        for (let r = 0; r < columnData.length; r++) {
          const v = columnData[r];
          const row = rowStart + r;
          if (columnName === 'distance') {
            const d = distanceOf(v);
            if (d < 0) problem ??= new UsageError(`${name}: row ${row + 1}: distance must be an integer in 0..64 (got ${JSON.stringify(typeof v === 'bigint' ? String(v) : v)})`);
            else distance[row] = d;
          } else if (typeof v !== 'string') problem ??= new UsageError(`${name}: row ${row + 1}: ${columnName} is ${v === null ? 'null' : typeof v}, expected a path`);
          else (columnName === 'path_a' ? pathA : pathB)[row] = v;
        }
      },
    });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${name}: not a readable pairs Parquet file (${error instanceof Error ? error.message : String(error)})`);
  }
  if (problem) throw problem;
  for (const [column, read] of chunks) checkCoverage(read, n, column, name);
  return { format: 'parquet', pathA, pathB, distance, recorded: recordedSettings(metadata.key_value_metadata ?? []) };
}

/** A field written by `simsift pairs --paths` (escapePath), read back. */
function unescapeField(text: string): string {
  return unescapeName(text);
}

/** Parses `simsift pairs --paths` lines: `i j distance<TAB>path_a<TAB>path_b`; blank lines are skipped. */
export function parsePairLines(text: string, name: string): { pathA: string[]; pathB: string[]; distance: Uint8Array } {
  const pathA: string[] = [];
  const pathB: string[] = [];
  const distances: number[] = [];
  const lines = text.split('\n');
  for (let l = 0; l < lines.length; l++) {
    const line = lines[l].endsWith('\r') ? lines[l].slice(0, -1) : lines[l];
    if (line.trim() === '') continue;
    const fields = line.split('\t');
    const numbers = /^\s*(\d+) (\d+) (\d+)\s*$/.exec(fields[0]);
    if (!numbers || fields.length !== 3) {
      const shown = line.length > 60 ? `${line.slice(0, 60)}...` : line;
      throw new UsageError(
        `${name}:${l + 1}: expected \`i j distance<TAB>path_a<TAB>path_b\` (simsift pairs --paths), got ${JSON.stringify(shown)}` +
          (numbers && fields.length === 1 ? ': the pairs have no paths; write them with --paths, or as Parquet' : ''),
      );
    }
    distances.push(checkedDistance(Number(numbers[3]), `${name}:${l + 1}`));
    pathA.push(unescapeField(fields[1]));
    pathB.push(unescapeField(fields[2]));
  }
  return { pathA, pathB, distance: Uint8Array.from(distances) };
}
