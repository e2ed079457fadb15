/**
 * Checks a Parquet input's metadata before any of its pages is decoded (`pairs FILE`, `scan --pairs`):
 * a row count that no file of its size could hold, row groups that do not add up to it, a column of
 * the wrong physical type, or a column chunk that lies outside the file is a clear error naming the
 * file, never "Invalid array length", a huge allocation or a decoder running on garbage.
 */
import type { FileMetaData } from 'hyparquet';
import { UsageError } from './cli-common.ts';

/**
 * Rows a file of `bytes` bytes can really hold: every row of SimSift's inputs differs from the others
 * (distinct paths, distinct pairs), so each takes at least a bit somewhere in the file.
 */
const maxRows = (bytes: number) => Math.min(2 ** 32 - 1, 8 * bytes);

/**
 * The file's row count, after checking that the metadata can be believed for a file of `fileBytes`
 * bytes and that each of `columns` (name -> Parquet physical type) is there with that type.
 */
export function checkedRowCount(metadata: FileMetaData, fileBytes: number, columns: Record<string, string>, name: string): number {
  const damaged = (what: string) => new UsageError(`${name}: a damaged Parquet file (${what})`);
  const rows = metadata.num_rows;
  if (rows < 0n || rows > BigInt(maxRows(fileBytes))) {
    throw damaged(`it claims ${rows.toLocaleString('en')} rows, more than a file of ${fileBytes.toLocaleString('en')} bytes can hold`);
  }
  const n = Number(rows);
  const types = new Map(metadata.schema.slice(1).map((e) => [e.name, e.type]));
  for (const [column, type] of Object.entries(columns)) {
    if (types.has(column) && types.get(column) !== type) throw damaged(`its ${column} column is ${types.get(column) ?? 'a group'}, expected ${type}`);
  }
  let total = 0;
  for (const [g, group] of metadata.row_groups.entries()) {
    const groupRows = Number(group.num_rows);
    if (!(groupRows >= 0) || groupRows > n) throw damaged(`row group ${g + 1} claims ${group.num_rows} rows`);
    total += groupRows;
    for (const chunk of group.columns) {
      const meta = chunk.meta_data;
      if (!meta || !Object.hasOwn(columns, meta.path_in_schema.join('.'))) continue;
      const column = meta.path_in_schema.join('.');
      // A flat column has one value (or null) per row.
      if (Number(meta.num_values) !== groupRows) throw damaged(`row group ${g + 1}: ${column} has ${meta.num_values} values for ${groupRows} rows`);
      const start = Number(meta.dictionary_page_offset ?? meta.data_page_offset);
      const end = start + Number(meta.total_compressed_size);
      if (!(start >= 4 && end <= fileBytes && end > start)) throw damaged(`row group ${g + 1}: ${column}'s pages lie outside the file`);
    }
  }
  if (total !== n) throw damaged(`its row groups hold ${total.toLocaleString('en')} rows, its footer says ${n.toLocaleString('en')}`);
  return n;
}

/** Checks that the values read of `column` covered rows [0, n) exactly once (as the decoder delivered them, chunk by chunk). */
export function checkCoverage(chunks: ReadonlyArray<{ start: number; length: number }>, n: number, column: string, name: string): void {
  let at = 0;
  for (const c of [...chunks].sort((a, b) => a.start - b.start)) {
    if (c.start !== at) break;
    at += c.length;
  }
  if (at !== n) throw new UsageError(`${name}: a damaged Parquet file (its ${column} column holds ${at.toLocaleString('en')} of ${n.toLocaleString('en')} rows)`);
}
