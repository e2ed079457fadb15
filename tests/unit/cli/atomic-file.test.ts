import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { mountSmallFilesystem, unmountSmallFilesystem } from './small-filesystem.ts';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { BrokenPipeError, OutputError, openAtomicFile, writeAtomicFile, writeStream } from '../../../src/cli/atomic-file.ts';

let dir: string;
/** A 64 KiB tmpfs (we run as root), or null where mounting is not allowed. */
let small: string | null = null;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'simsift-atomic-'));
  small = mountSmallFilesystem(dir);
});

afterAll(() => {
  unmountSmallFilesystem(small);
  rmSync(dir, { recursive: true, force: true });
});

const leftovers = (folder: string) => readdirSync(folder).filter((name) => name.endsWith('.simsift-tmp'));

describe('openAtomicFile', () => {
  it('puts nothing at the target until commit, then the whole file, with the earlier file\'s mode', async () => {
    const target = join(dir, 'out.csv');
    writeFileSync(target, 'earlier\n');
    chmodSync(target, 0o640);
    const file = await openAtomicFile(target);
    await file.write('new ');
    file.writeSync(new TextEncoder().encode('content\n'));
    expect(readFileSync(target, 'utf8')).toBe('earlier\n');
    expect(leftovers(dir)).toHaveLength(1);
    await file.commit();
    expect(readFileSync(target, 'utf8')).toBe('new content\n');
    expect(statSync(target).mode & 0o777).toBe(0o640);
    expect(leftovers(dir)).toEqual([]);
  });

  it('leaves the earlier file as it was and removes its temporary file on abort', async () => {
    const target = join(dir, 'kept.csv');
    writeFileSync(target, 'earlier\n');
    const file = await openAtomicFile(target);
    await file.write('half a file');
    await file.abort();
    await file.abort();
    expect(readFileSync(target, 'utf8')).toBe('earlier\n');
    expect(leftovers(dir)).toEqual([]);
  });

  it('replaces the file a symbolic link points to, keeping the link', async () => {
    const real = join(dir, 'real.csv');
    const link = join(dir, 'link.csv');
    writeFileSync(real, 'earlier\n');
    symlinkSync(real, link);
    await writeAtomicFile(link, ['through the link\n']);
    expect(readFileSync(real, 'utf8')).toBe('through the link\n');
    expect(readFileSync(link, 'utf8')).toBe('through the link\n');
  });

  it('refuses a folder and a missing folder at once, with one line', async () => {
    await expect(openAtomicFile(dir)).rejects.toThrow(/^cannot write ".*" \(it is a directory\)$/);
    await expect(openAtomicFile(join(dir, 'nope', 'x.csv'))).rejects.toThrow(/^cannot write ".*" \(ENOENT: no such file or directory\)$/);
  });

  it('on a full filesystem rejects with ENOSPC, keeps the earlier file and removes the temporary one', async (context) => {
    if (!small) return context.skip();
    const target = join(small, 'out.csv');
    writeFileSync(target, 'earlier\n');
    const big = 'x'.repeat(16 * 1024);
    const error = await writeAtomicFile(target, Array.from({ length: 8 }, () => big)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutputError);
    expect((error as Error).message).toMatch(/^cannot write ".*out\.csv" \(ENOSPC: no space left on device\)$/);
    expect(readFileSync(target, 'utf8')).toBe('earlier\n');
    expect(leftovers(small)).toEqual([]);
  });

  it('writes a device in place, and a full one (/dev/full) fails with ENOSPC', async () => {
    await writeAtomicFile('/dev/null', ['nothing\n']);
    const error = await writeAtomicFile('/dev/full', ['x'.repeat(100_000)]).catch((e: unknown) => e);
    expect((error as Error).message).toBe('cannot write "/dev/full" (ENOSPC: no space left on device)');
    expect(leftovers('/dev')).toEqual([]);
  });
});

describe('writeStream', () => {
  it('rejects with BrokenPipeError for EPIPE and a one-line OutputError for any other failure, never an uncaught error', async () => {
    const pipe = new PassThrough();
    pipe.destroy(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    await expect(writeStream(pipe, 'x')).rejects.toBeInstanceOf(BrokenPipeError);
    const full = new PassThrough({
      write(_chunk, _encoding, callback) {
        callback(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
      },
    });
    const error = await writeStream(full, 'x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutputError);
    expect((error as Error).message).toBe('cannot write stdout (ENOSPC: no space left on device)');
    // The stream's later 'error' event finds a listener: nothing is thrown at the process.
    await expect(writeStream(full, 'y')).rejects.toBeInstanceOf(OutputError);
  });
});
