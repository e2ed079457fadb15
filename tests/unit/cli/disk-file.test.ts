/**
 * The CLI's Blob of a file on disk (cli/disk-file.ts): read when asked, checked against its listing,
 * never posted; and light, since a cached scan holds one per unchanged file (#34: 100,000 of them).
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHANGED_SINCE_LISTED, diskFile, diskRefOf } from '../../../src/cli/disk-file.ts';

const root = mkdtempSync(join(tmpdir(), 'simsift-disk-file-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('diskFile', () => {
  it('reads the file and its slices, fails once it changed since listed, and cannot be posted', async () => {
    const path = join(root, 'a.txt');
    writeFileSync(path, 'hello world');
    const { size, mtimeMs } = statSync(path);
    const file = diskFile(path, { size, mtimeMs });
    expect(await file.text()).toBe('hello world');
    expect(await file.slice(6).text()).toBe('world');
    expect(diskRefOf(file)).toEqual({ path, size, mtimeMs });
    expect(diskRefOf(file.slice(1))).toBeNull();
    expect(() => structuredClone(file)).toThrow();
    await expect(diskFile(path, { size: size + 1, mtimeMs }).text()).rejects.toThrow(CHANGED_SINCE_LISTED);
  });

  it('holds no function or object of its own per file', () => {
    const a = diskFile(join(root, 'a'), { size: 1, mtimeMs: 2 }) as unknown as Record<string, unknown>;
    const b = diskFile(join(root, 'b'), { size: 1, mtimeMs: 2 }) as unknown as Record<string, unknown>;
    for (const key of Object.keys(a)) {
      if (typeof a[key] === 'function') expect(a[key], key).toBe(b[key]);
      else expect(typeof a[key] === 'object' && a[key] !== null, key).toBe(false);
    }
  });
});
