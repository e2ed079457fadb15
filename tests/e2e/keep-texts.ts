/** The texts the keep specs scan: a bicycle repair text and a bread text, with copies and a near-duplicate made from them. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
export const BICYCLE =
  'Repairing a bicycle puncture starts with removing the wheel, levering the tyre off the rim and finding the hole ' +
  'by pumping the tube and listening for the hiss of escaping air, then roughening the rubber and applying a patch. ' +
  'Let the glue dry before pressing the patch on, and check the inside of the tyre for the thorn that caused it.';
export const BREAD =
  'Sourdough bread needs a lively starter, a long cold fermentation, gentle folding every half hour, shaping with ' +
  'surface tension, and a very hot oven with steam for the first twenty minutes so the crust can expand and colour.';

/** The bicycle text, an identical copy and a near-duplicate (one sentence added), by path under a folder. */
export const BICYCLE_FILES: Readonly<Record<string, string>> = {
  'articles/bicycle.txt': BICYCLE,
  'backup/bicycle.txt': BICYCLE,
  'drafts/bicycle-sentence-added.txt': BICYCLE + ' One more sentence about plastic tyre levers.',
};

/** Writes `files` (path under `folder` -> text) to disk, making their folders. */
export function writeFolder(folder: string, files: Readonly<Record<string, string>>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(folder, path, '..'), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
}
