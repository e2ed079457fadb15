/**
 * `parseFingerprintLines` (what `simsift pairs` reads a text file with) held to a plain string model on
 * seeded random files, and to one pass over the bytes of a plain fingerprint file.
 */
import { describe, expect, it } from 'vitest';
import { parseFingerprintLines } from '../../../src/cli/fingerprint-input.ts';
import { escapeName } from '../../../src/cli/terminal-names.ts';
import { mulberry32 } from '../../fixtures/mulberry32.ts';

/** The format, read the slow and obvious way: a string per line. */
function model(text: string, withPaths: boolean) {
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  if (text === '') lines.length = 0;
  const hi: number[] = [];
  const lo: number[] = [];
  const rows: number[] = [];
  const paths: string[] = [];
  lines.forEach((raw, line) => {
    const trimmed = raw.replace(/^[ \t]+/, '').replace(/[ \t\r]+$/, '');
    const m = /^(?:(-)|([0-9a-fA-F]{16}))(?:[ \t]+(.*))?$/s.exec(trimmed);
    if (!m) throw new Error(`x:${line + 1}: `);
    if (withPaths) paths.push(m[3] ?? '');
    if (m[1]) return;
    hi.push(parseInt(m[2].slice(0, 8), 16));
    lo.push(parseInt(m[2].slice(8), 16));
    rows.push(line);
  });
  return { hi, lo, rows: rows.length === lines.length ? null : rows, totalRows: lines.length, ...(withPaths ? { paths } : {}) };
}

const HEX = '0123456789abcdefABCDEF';

/** A random file: mostly plain 17-byte lines, then `-` rows, paths, blanks, CRs, a missing last newline, and now and then a bad digit. */
function randomFile(seed: number): string {
  const rnd = mulberry32(seed);
  const pick = (s: string) => s[rnd() % s.length];
  const digits = () => Array.from({ length: 16 }, () => pick(HEX)).join('');
  const lines: string[] = [];
  const count = rnd() % 40;
  for (let i = 0; i < count; i++) {
    const r = rnd() % 20;
    if (r < 10) lines.push(digits());
    else if (r < 12) lines.push(rnd() % 2 ? '-' : `-  ${escapeName(`dir/f${i}.bin`)}`);
    else if (r < 15) lines.push(`${digits()}${rnd() % 2 ? '  ' : '\t'}${escapeName(`dir/é ${i}.txt`)}`);
    else if (r < 17) lines.push(`${rnd() % 2 ? ' ' : '\t'}${digits()}${rnd() % 2 ? '\r' : ' '}`);
    else if (r < 18) lines.push(`${digits()}\r`);
    else if (r < 19 && rnd() % 4 === 0) {
      // A bad digit somewhere in an otherwise plain line (the fast path must hand it to the checked one).
      const d = digits().split('');
      d[rnd() % 16] = pick('gGxz-: \u00e9');
      lines.push(d.join(''));
    } else lines.push(digits().toUpperCase());
  }
  return lines.join('\n') + (rnd() % 3 ? '\n' : '');
}

describe('parseFingerprintLines', () => {
  it('reads what a string-per-line model reads, and fails where it fails (300 seeded files, every other one into shared memory)', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const text = randomFile(seed);
      const shared = seed % 2 === 0;
      for (const withPaths of [false, true]) {
        let want: ReturnType<typeof model> | Error;
        try {
          want = model(text, withPaths);
        } catch (error) {
          want = error as Error;
        }
        const where = `seed ${seed}, paths ${withPaths}, shared ${shared}: ${JSON.stringify(text.slice(0, 200))}`;
        if (want instanceof Error) {
          expect(() => parseFingerprintLines(Buffer.from(text), 'x', withPaths, shared), where).toThrow(want.message);
          continue;
        }
        const got = parseFingerprintLines(Buffer.from(text), 'x', withPaths, shared);
        expect([got.hi.buffer instanceof SharedArrayBuffer, got.lo.buffer instanceof SharedArrayBuffer], where).toEqual([shared, shared]);
        const paths = got.paths?.map((p) => escapeName(p));
        expect({ hi: [...got.hi], lo: [...got.lo], rows: got.rows && [...got.rows], totalRows: got.totalRows, ...(paths ? { paths } : {}) }, where).toEqual(want);
      }
    }
  });

  it('reads each byte of a plain fingerprint file once (no separate pass counting the lines)', () => {
    const text = Array.from({ length: 50 }, (_, i) => ((BigInt(i) * 0x9e3779b97f4a7c15n) % 2n ** 64n).toString(16).padStart(16, '0')).join('\n') + '\n';
    const bytes = Buffer.from(text);
    let reads = 0;
    const counted = new Proxy(bytes, {
      get(target, key) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        const value = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const parsed = parseFingerprintLines(counted, 'x');
    expect(parsed.hi.length).toBe(50);
    expect(reads).toBe(bytes.length);
  });
});
