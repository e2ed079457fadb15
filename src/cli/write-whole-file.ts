/**
 * Writes a file the product makes (a plan, an undo log) whole or not at all: a temporary file beside the
 * target, flushed, then renamed over it. ("outputs" is building the shared atomic-write module for
 * src/cli; this is the one place the keep commands use the pattern, so the switch is one import.)
 */
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Writes `text` (UTF-8) to `path` through a temporary file in the same folder and a rename. */
export async function writeWholeFile(path: string, text: string): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  const handle = await open(temp, 'wx');
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}
