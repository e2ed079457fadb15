/**
 * The `--cache` file's own checks: it closes with the XXH64 of its body (#34: a SHA-256 of the whole
 * file was hashed on every cached scan, once to read it and once to rewrite it), and a changed byte is
 * damage.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import xxhash from 'xxhash-wasm';
import { afterAll, describe, expect, it } from 'vitest';
import { runScan } from '../../../src/cli/scan-command.ts';
import { CacheProblem, readScanCache } from '../../../src/cli/scan-cache.ts';
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
});
