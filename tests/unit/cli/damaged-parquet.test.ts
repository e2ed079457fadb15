// Issue #35: a damaged fingerprints Parquet never stops `simsift pairs`. Two single-byte flips in a page
// header (found by flipping every byte of this file, written by `simsift fingerprint --format parquet`,
// with a few masks) sent hyparquet into a loop whose promise never settles: the command spun forever and,
// with --out, ignored SIGINT and SIGTERM. Decoding now runs in a worker thread under a time limit.
// These tests failed (hung, killed by the hang detector) on the code before.
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runNode } from '../run-node.ts';

/** `simsift fingerprint /tmp/hz/docs --format parquet --out fp.parquet` over five one-line texts (1,552 bytes). */
const FINGERPRINTS = Buffer.from(
  'UEFSMRUGFeYBFWJcFQoVABUKFQAVABUAAABzWBMAAAAvdG1wL2h6L2RvY3MvZDEudHh0RhcAADJWFwAAM1YXAAA0VhcAEDUu' +
    'dHh0FQYVVBVYXBUKFQAVChUAFQQVAAAAAx8onPaQWwde98kv9iCbC163yS33MFuHXreNLXeg2wdets0udqBbA162xSsVBhXM' +
    'ARW2AVwVChUAFQoVABUEFQAAAAMfZEwQAAAAMmZjOWY3NWUwNzViOTBmNgUUDGRjOWIBFBBiOWIyMBEUNDhkYjc1ZTg3NWIz' +
    'MGY3BSgQZWNkYjYBPBRkYmEwNzcFFDhiYzViNjVlMDM1YmEwNzYVBhVUFVhcFQoVABUKFQAVBBUAAAADHyiccn5CZ+Y2CIPE' +
    'Hdf+xPeur1546IEKwQdeIFkICBRA47X+W4K8cyd7/BUEFQgVDEwVAhUAAAAEDBcAAAAVBhUEFQhcFQoVABUKFRAVABUAAAAC' +
    'BAADFQQVDBUQTBUCFQAAAAYUAgAAAG9rFQYVBBUIXBUKFQAVChUQFQAVAAAAAgQAAxUEFRAVFEwVAhUAAAAIHAQAAAB0ZXh0' +
    'FQYVCBUMXBUKFQAVChUQFQQVAAAAAx8CBAADFQQZjEgEcm9vdBUOABUMJQAYBHBhdGglAAAVBCUCGAtmaW5nZXJwcmludCUc' +
    'ABUMJQIYD2ZpbmdlcnByaW50X2hleCUAABUEJQIYDGNvbnRlbnRfaGFzaCUcABUCJQAYCndvcmRfY291bnQlGgAVDCUAGAZz' +
    'dGF0dXMlAAAVDCUCGAZmb3JtYXQlAAAWChkcGXwmCBwVDBkVABkYBHBhdGgVAhYKFpICFo4BJgg8NgAoEC90bXAvaHovZG9j' +
    'cy9kNS8YEC90bXAvaHovZG9jcy9kMS4SEgAZHBUGFQAVAgAAACaWARwVBBkVABkYC2ZpbmdlcnByaW50FQIWChZ+FoIBJpYB' +
    'PDYAKAj2kFsHXvfJLxgIdqBbA162xSsAGRwVBhUAFQIAAAAmmAIcFQwZFQAZGA9maW5nZXJwcmludF9oZXgVAhYKFvoBFuQB' +
    'JpgCPDYAKBAyZmM5Zjc1ZTA3NWI5MGY2GBAyYmM1YjY1ZTAzNWJhMDc2ABkcFQYVABUCAAAAJvwDHBUEGRUAGRgMY29udGVu' +
    'dF9oYXNoFQIWChZ+FoIBJvwDPDYAKAj+W4K8cyd7/BgIXnjogQrBB14AGRwVBhUAFQIAAAAm/gQcFQIZJQAQGRgKd29yZF9j' +
    'b3VudBUCFgoWUBZYJqQFJv4EHDYAKAQXAAAAGAQXAAAAABksFQQVABUCABUGFRAVAgAAACbWBRwVDBklABAZGAZzdGF0dXMV' +
    'AhYKFlQWXCaABibWBRw2ACgCb2sYAm9rABksFQQVABUCABUGFRAVAgAAACayBhwVDBklABAZGAZmb3JtYXQVAhYKFlwWZCbg' +
    'BiayBhw2ACgEdGV4dBgEdGV4dAAZLBUEFQAVAgAVBhUQFQIAAAAWiAgWCjaOBwAZbBgPc2ltc2lmdC52ZXJzaW9uGAUwLjEu' +
    'MAAYEHNpbXNpZnQuZmVhdHVyZXMYBXdvcmQzABgPc2ltc2lmdC53ZWlnaHRzGAZiaW5hcnkAGBJzaW1zaWZ0LnN0b3Bfd29y' +
    'ZHMYBWZhbHNlABgTc2ltc2lmdC5maW5nZXJwcmludBhcc2ltaGFzaDY0OiBiaXQgaSBzZXQgaWZmIHRoZSB3ZWlnaHRlZCBz' +
    'dW0gb2YgZmVhdHVyZSBoYXNoZXMgKFhYSDY0LCBzZWVkIDApIGZvciBiaXQgaSBpcyA+IDAAGBRzaW1zaWZ0LmNvbnRlbnRf' +
    'aGFzaBh6WFhINjQsIHNlZWQgMCwgb2YgdGhlIG5vcm1hbGl6ZWQgdGV4dCAoVVRGLTgpOyBzZWVkZWQgYnkgdGhlIFhYSDY0' +
    'IG9mIHRoZSByYXcgYnl0ZXMgd2hlbiB0aGUgZGVjb2RlIHJlcGxhY2VkIGRhbWFnZWQgYnl0ZXMAGBVzaW1zaWZ0IHZlcnNp' +
    'b24gMC4xLjAZfBwAABwAABwAABwAABwAABwAABwAAAA9BAAAUEFSMQ==',
  'base64',
);

/** The flips (offset, XOR mask) that hung: both in the fingerprint column's data page header. */
const HANGING_FLIPS: ReadonlyArray<[number, number]> = [
  [82, 0x10],
  [91, 0xff],
];

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A temporary folder holding fp.parquet (intact) and flip-OFFSET.parquet for each hanging flip. */
async function setUp(): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'simsift-damaged-parquet-'));
  await writeFile(join(dir, 'fp.parquet'), FINGERPRINTS);
  for (const [offset, mask] of HANGING_FLIPS) {
    const bad = Buffer.from(FINGERPRINTS);
    bad[offset]! ^= mask;
    await writeFile(join(dir, `flip-${offset}.parquet`), bad);
  }
  return dir;
}

/** `node bin/simsift.js ...args` in `cwd`; the hang detector kills it (and fails the test) after 90 s. */
const simsift = (args: string[], cwd: string, onStart?: (child: ChildProcess) => void) =>
  runNode([resolve('bin/simsift.js'), ...args], { cwd, env: { PATH: process.env.PATH, HOME: cwd }, hangMs: 90_000, onStart });

describe('a damaged fingerprints Parquet never stops simsift pairs (#35)', () => {
  it('the intact file gives its pairs', async () => {
    const d = await setUp();
    const r = await simsift(['pairs', 'fp.parquet', '--k', '8'], d);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe('0 2 8\n3 4 6\n');
  }, 120_000);

  it('each hanging flip ends with one line naming the file and exit code 2, with and without --out', async () => {
    const d = await setUp();
    const runs = HANGING_FLIPS.flatMap(([offset]) => [
      simsift(['pairs', `flip-${offset}.parquet`, '--k', '3'], d),
      simsift(['pairs', `flip-${offset}.parquet`, '--k', '3', '--out', `out-${offset}.txt`], d),
    ]);
    for (const [i, r] of (await Promise.all(runs)).entries()) {
      const offset = HANGING_FLIPS[i >> 1]![0];
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(new RegExp(`^simsift pairs: flip-${offset}\\.parquet: a damaged Parquet file \\(not decoded within \\d+ s: .*\\)\\n$`));
      expect(r.out).toBe('');
    }
    expect((await readdir(d)).sort()).toEqual(['flip-82.parquet', 'flip-91.parquet', 'fp.parquet']);
  }, 180_000);

  it('SIGINT while it decodes ends the command (exit 130) and leaves no output', async () => {
    const d = await setUp();
    const r = await simsift(['pairs', 'flip-82.parquet', '--k', '3', '--out', 'out.txt'], d, (child) => {
      // The output's temporary file exists once the signal handlers are in place; the decode follows it.
      const poll = setInterval(() => {
        void readdir(d).then((names) => {
          if (!names.some((n) => n.endsWith('.simsift-tmp'))) return;
          clearInterval(poll);
          setTimeout(() => child.kill('SIGINT'), 1_000);
        });
      }, 100);
      child.on('close', () => clearInterval(poll));
    });
    expect(r.code, r.err).toBe(130);
    expect(r.err).toMatch(/simsift: interrupted by SIGINT; "out\.txt" not written/);
    expect(existsSync(join(d, 'out.txt'))).toBe(false);
    expect((await readdir(d)).filter((n) => n.endsWith('.simsift-tmp'))).toEqual([]);
  }, 120_000);
});
