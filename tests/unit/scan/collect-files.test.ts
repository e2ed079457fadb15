import { describe, expect, it } from 'vitest';
import { collectFromFileList, isHiddenName } from '../../../src/scan/collect-files.ts';

/** A File as a folder input gives it: with `webkitRelativePath` (Node's File has none). */
function inFolder(path: string, content = 'x'): File {
  const f = new File([content], path.split('/').pop()!);
  Object.defineProperty(f, 'webkitRelativePath', { value: path });
  return f;
}

describe('collectFromFileList', () => {
  it('keeps relative paths, skips dotfiles, dot-folders and node_modules, collapsing hidden folders', async () => {
    const list = [
      inFolder('root/a.txt'),
      inFolder('root/.git/HEAD', '1234'),
      inFolder('root/.git/objects/ab/cd', '12'),
      inFolder('root/sub/.env'),
      inFolder('root/sub/node_modules/x/index.js'),
      inFolder('root/sub/b.md'),
      inFolder('root/other/a.txt'),
    ];
    const c = await collectFromFileList(list);
    // In path order, whatever order the list came in: the same folder always gives the same doc ids.
    expect(c.paths).toEqual(['root/a.txt', 'root/other/a.txt', 'root/sub/b.md']);
    expect(c.files.map((f) => f.name)).toEqual(['a.txt', 'a.txt', 'b.md']);
    const hidden = Object.fromEntries(c.hidden.map((h) => [h.path, h]));
    expect(Object.keys(hidden).sort()).toEqual(['root/.git/', 'root/sub/.env', 'root/sub/node_modules/']);
    expect(hidden['root/.git/'].message).toMatch(/^Hidden folder: 2 files inside were not read/);
    expect(hidden['root/sub/.env'].message).toMatch(/^Hidden file/);
    expect(c.hidden.every((h) => h.reason === 'hidden' && h.docId === -1)).toBe(true);
  });

  it('uses the bare name for files chosen one by one', async () => {
    const c = await collectFromFileList([new File(['x'], 'note "quoted" <b>&amp; 🎉 \u202Eevil.txt')]);
    expect(c.paths).toEqual(['note "quoted" <b>&amp; 🎉 \u202Eevil.txt']);
  });
});

describe('isHiddenName', () => {
  it('is true for dot-names and node_modules only', () => {
    expect(['.git', '.DS_Store', 'node_modules'].every(isHiddenName)).toBe(true);
    expect(['a.txt', 'node_modules2', 'x.'].some(isHiddenName)).toBe(false);
  });
});
