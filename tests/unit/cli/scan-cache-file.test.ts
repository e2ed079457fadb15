/**
 * The `--cache` file's own checks: it closes with the XXH64 of its body (#34: a SHA-256 of the whole
 * file was hashed on every cached scan, once to read it and once to rewrite it), and a changed byte is
 * damage; its paths take one byte per UTF-16 unit when every unit fits in one, and come back exactly either way.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import xxhash from 'xxhash-wasm';
import { afterAll, describe, expect, it } from 'vitest';
import { runScan } from '../../../src/cli/scan-command.ts';
import { CacheProblem, readScanCache, splitPaths } from '../../../src/cli/scan-cache.ts';
import { TEXTS } from '../corpus/corpus-model.ts';
import { runCommand } from './run-command.ts';

const root = mkdtempSync(join(tmpdir(), 'simsift-cache-file-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the scan cache file', () => {
  it('closes with the XXH64 (seed 0) of its body, lo and hi as little-endian uint32, and a changed byte is damage', async () => {
    const dir = join(root, 'folder');
    const file = join(root, 'cache');
    mkdirSync(dir);
    TEXTS.slice(0, 3).forEach((text, i) => writeFileSync(join(dir, `t${i}.txt`), text));
    expect((await runCommand(runScan, [dir, '--threads', '1', '--cache', file, '--out', join(root, 'out.csv')])).code).toBe(0);
    const bytes = readFileSync(file);
    const body = bytes.subarray(0, bytes.length - 8);
    const { h64Raw } = await xxhash();
    const trailer = bytes.subarray(bytes.length - 8);
    expect((BigInt(trailer.readUInt32LE(4)) << 32n) | BigInt(trailer.readUInt32LE(0))).toBe(h64Raw(body));
    expect((await readScanCache(file))!.corpus.count).toBe(3);
    bytes[body.length - 1] ^= 1;
    writeFileSync(file, bytes);
    await expect(readScanCache(file)).rejects.toThrow(new CacheProblem('it is damaged (checksum)'));
  });

  it('keeps paths in one byte per unit when all fit (latin1), in two otherwise, and reads back the same names', async () => {
    const headOf = (file: string) => {
      const bytes = readFileSync(file);
      const at = 'SIMSIFT-SCAN-CACHE\n'.length;
      return JSON.parse(bytes.subarray(at + 4, at + 4 + bytes.readUInt32LE(at)).toString('utf8')) as { pathText: string };
    };
    for (const [name, names, pathText] of [['narrow', ['a.txt', 'caf\u00e9 \u00ff.txt'], 'latin1'], ['wide', ['a.txt', '\u65e5\u672c.txt'], 'utf16le']] as const) {
      const dir = join(root, name);
      const file = join(root, `${name}.cache`);
      mkdirSync(dir);
      names.forEach((n, i) => writeFileSync(join(dir, n), TEXTS[i]!));
      expect((await runCommand(runScan, [dir, '--threads', '1', '--cache', file, '--out', join(root, `${name}.csv`)])).code).toBe(0);
      expect(headOf(file).pathText).toBe(pathText);
      expect((await readScanCache(file))!.corpus.paths).toEqual([...names].sort());
    }
  });

  it('decodes each stored path on its own, a NUL unit (two zero bytes at a unit boundary) between them', () => {
    expect(splitPaths(Buffer.from('a\0b/c.txt\0\0d', 'latin1'), 'latin1')).toEqual(['a', 'b/c.txt', '', 'd']);
    expect(splitPaths(Buffer.alloc(0), 'latin1')).toEqual(['']);
    // 'x' then U+0100 is 78 00 00 01: two zero bytes across a unit boundary are no NUL; a lone surrogate comes back as it was.
    const wide = ['x\u0100', '\u3000\ud800', '\u65e5'];
    expect(splitPaths(Buffer.from(wide.join('\0'), 'utf16le'), 'utf16le')).toEqual(wide);
  });
});
