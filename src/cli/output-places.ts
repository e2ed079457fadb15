/**
 * Where the scan's outputs may go: never over a file being scanned, nor over each other. Checked by real
 * path before any file is read, so a slip (`--out DIR/doc.txt`, `--out x --plan x`) loses nothing.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from './cli-common.ts';
import { isWithin, realPathOf } from './apply-paths.ts';

/** Throws a UsageError when two of `outputs` (option name, file) are one file, or one is an existing file under `dir`. */
export async function refuseOverlappingOutputs(dir: string, outputs: ReadonlyArray<[string, string | undefined]>): Promise<void> {
  const root = await realPathOf(resolve(dir));
  const seen = new Map<string, string>();
  for (const [option, file] of outputs) {
    if (file === undefined) continue;
    const real = await realPathOf(resolve(file)).catch(() => resolve(file));
    const other = seen.get(real);
    if (other !== undefined) throw new UsageError(`${option} ${JSON.stringify(file)} is the same file as ${other}: one would overwrite the other`);
    seen.set(real, `${option} ${JSON.stringify(file)}`);
    const info = await stat(real).catch(() => null);
    if (info?.isFile() && isWithin(real, root)) {
      throw new UsageError(`${option} ${JSON.stringify(file)} is a file in the folder being scanned: writing it would replace a scanned document; choose a path outside ${JSON.stringify(dir)}`);
    }
  }
}
