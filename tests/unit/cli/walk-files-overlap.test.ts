/**
 * The walk lists a folder's subfolders at once (#34: a cached scan's stats wait for the walk, which
 * read 100 folders one round trip after another), and still hears and lists in path order.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

const reads = vi.hoisted(() => ({ inFlight: 0, most: 0 }));
vi.mock('node:fs/promises', async (original) => {
  const fs = await original<typeof import('node:fs/promises')>();
  const readdir = (async (...args: Parameters<typeof fs.readdir>) => {
    reads.most = Math.max(reads.most, ++reads.inFlight);
    try {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return await fs.readdir(...args);
    } finally {
      reads.inFlight--;
    }
  }) as typeof fs.readdir;
  return { ...fs, readdir, default: { ...fs, readdir } };
});

const { walkFiles } = await import('../../../src/cli/walk-files.ts');

const root = mkdtempSync(join(tmpdir(), 'simsift-walk-overlap-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('walkFiles', () => {
  it('lists the subfolders of a folder at once, and gives paths and hidden names in path order', async () => {
    for (const dir of ['d2', 'd0', 'd1/inner', 'd1/.hidden']) mkdirSync(join(root, dir), { recursive: true });
    for (const file of ['d0/a', 'd1/inner/b', 'd1/c', 'd2/.h', 'd2/e', 'top']) writeFileSync(join(root, file), 'text');
    const hidden: string[] = [];
    const paths = await walkFiles(root, () => undefined, (path) => hidden.push(path));
    expect(paths).toEqual(['d0/a', 'd1/c', 'd1/inner/b', 'd2/e', 'top']);
    expect(hidden).toEqual(['d1/.hidden', 'd2/.h']);
    expect(reads.most).toBe(3);
  });
});
