/** Matching files a person picked again to the documents whose contents were not kept. */

/**
 * For each path, the picked file that is it: the same relative path when the browser gives one
 * (a folder pick), else the same file name. Paths with no match are left out.
 */
export function matchPickedFiles(paths: readonly string[], files: readonly File[]): Map<string, File> {
  const out = new Map<string, File>();
  for (const path of paths) {
    const name = path.slice(path.lastIndexOf('/') + 1);
    const exact = files.find((f) => f.webkitRelativePath === path);
    const byName = exact ?? files.find((f) => f.name === name);
    if (byName) out.set(path, byName);
  }
  return out;
}
