/**
 * Where a command's outputs may go: never over a file it reads (a FILE operand, a file under a DIR
 * operand, a --pairs file), nor over each other. Checked by real path (and by device and inode) before
 * any file is read, so a slip (`--out DIR/doc.txt`, `pairs fp.txt --out fp.txt`, `--out x --plan x`)
 * loses nothing.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from './cli-common.ts';
import { isWithin, realPathOf } from './apply-paths.ts';

/** One output: its option name and the path given (undefined when the option was not given). */
export type OutputPlace = [option: string, file: string | undefined];

/**
 * Throws a UsageError when two of `outputs` are one file, or one of them is an existing file that the
 * command reads: one of `inputs` itself, or a file under an input that is a folder.
 */
export async function refuseOutputsOverInputs(inputs: readonly string[], outputs: readonly OutputPlace[]): Promise<void> {
  const read: { given: string; real: string; folder: boolean; id: string | null }[] = [];
  for (const given of inputs) {
    const real = await realPathOf(resolve(given)).catch(() => resolve(given));
    const info = await stat(real).catch(() => null);
    read.push({ given, real, folder: info?.isDirectory() ?? false, id: info ? `${info.dev}:${info.ino}` : null });
  }
  const seen = new Map<string, string>();
  for (const [option, file] of outputs) {
    if (file === undefined) continue;
    const real = await realPathOf(resolve(file)).catch(() => resolve(file));
    const named = `${option} ${JSON.stringify(file)}`;
    const other = seen.get(real);
    if (other !== undefined) throw new UsageError(`${named} is the same file as ${other}: one would overwrite the other`);
    seen.set(real, named);
    const info = await stat(real).catch(() => null);
    if (!info?.isFile()) continue;
    const id = `${info.dev}:${info.ino}`;
    for (const input of read) {
      if (input.folder && isWithin(real, input.real)) {
        throw new UsageError(`${named} is a file under ${JSON.stringify(input.given)}, which this command reads: writing it would replace an input; choose a path outside it`);
      }
      if (!input.folder && (input.real === real || input.id === id)) {
        throw new UsageError(`${named} is ${JSON.stringify(input.given)}, which this command reads: writing it would replace its input; choose another path`);
      }
    }
  }
}
