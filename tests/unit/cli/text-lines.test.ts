/**
 * The text-lines kernel (cli/text-lines.ts): which lines it takes as 16 hex digits (every byte value at
 * every digit), what it reads from them, in place or copied in, and the pair lines it writes.
 */
import { describe, expect, it } from 'vitest';
import { pairLineBytes, parseLeadingHexLines, textInputBuffer } from '../../../src/cli/text-lines.ts';
import { mulberry32 } from '../../fixtures/mulberry32.ts';

const HEX = '0123456789abcdefABCDEF';
const encoder = new TextEncoder();

function parse(bytes: Uint8Array) {
  const lines = Math.ceil(bytes.length / 17);
  const hi = new Uint32Array(lines);
  const lo = new Uint32Array(lines);
  const n = parseLeadingHexLines(bytes, hi, lo);
  return { n, hi: [...hi.subarray(0, n)], lo: [...lo.subarray(0, n)] };
}

describe('parseLeadingHexLines', () => {
  it('reads 16 hex digits a line, either case, and stops at the first line that is anything else', () => {
    const rnd = mulberry32(38);
    const lines = Array.from({ length: 9 }, () => Array.from({ length: 16 }, () => HEX[rnd() % HEX.length]).join(''));
    const expected = { hi: lines.map((l) => parseInt(l.slice(0, 8), 16)), lo: lines.map((l) => parseInt(l.slice(8), 16)) };
    expect(parse(encoder.encode(lines.join('\n') + '\n'))).toEqual({ n: 9, ...expected });
    // The last line may end at the end of the file.
    expect(parse(encoder.encode(lines.join('\n')))).toEqual({ n: 9, ...expected });
    const stopsAt = (text: string) => parse(encoder.encode(text)).n;
    expect(stopsAt(`${lines[0]}\n${lines[1]}\r\n${lines[2]}\n`)).toBe(1);
    expect(stopsAt(`${lines[0]}\n${lines[1]}  a path\n`)).toBe(1);
    expect(stopsAt(`${lines[0]}\n${lines[1].slice(1)}\n${lines[2]}\n`)).toBe(1);
    expect(stopsAt(`${lines[0]}\n${lines[1]}0\n`)).toBe(1);
    expect(stopsAt(`${lines[0]}\n${lines[1].slice(1)}`)).toBe(1);
    expect(stopsAt(`-\n${lines[0]}\n`)).toBe(0);
    expect(stopsAt('')).toBe(0);
  });

  it('takes exactly the hex digits as digits: every byte value at every position of a line', () => {
    const plain = '0123456789abcdef';
    for (let position = 0; position < 16; position++) {
      for (let value = 0; value < 256; value++) {
        const bytes = encoder.encode(`${plain}\n${plain}\n${plain}\n`);
        bytes[17 + position] = value;
        const digit = HEX.includes(String.fromCharCode(value));
        const { n, hi, lo } = parse(bytes);
        if (!digit) {
          expect([position, value, n]).toEqual([position, value, 1]);
          continue;
        }
        const text = plain.slice(0, position) + String.fromCharCode(value) + plain.slice(position + 1);
        expect([position, value, n, hi[1], lo[1]]).toEqual([position, value, 3, parseInt(text.slice(0, 8), 16), parseInt(text.slice(8), 16)]);
      }
    }
  });

  it('parses past its chunks of 65,536 lines, and stops at a bad line on either side of a chunk end', () => {
    const line = (i: number) => (0x10000000 + i).toString(16) + '0123abcd\n';
    const text = Array.from({ length: 2 * 65536 + 3 }, (_, i) => line(i)).join('');
    const bytes = encoder.encode(text);
    const all = parse(bytes);
    expect([all.n, all.hi[65536], all.lo[131074]]).toEqual([2 * 65536 + 3, 0x10000000 + 65536, 0x0123abcd]);
    for (const bad of [65535, 65536, 131072]) {
      const broken = bytes.slice();
      broken[bad * 17 + 3] = 0x67;
      expect([bad, parse(broken).n]).toEqual([bad, bad]);
    }
    // Exactly one chunk, the last line without its newline.
    expect(parse(bytes.subarray(0, 65536 * 17 - 1)).n).toBe(65536);
  });

  it('parses a text read into its input buffer where it lies, as it parses a copy', () => {
    const rnd = mulberry32(7);
    const text = Array.from({ length: 500 }, () => Array.from({ length: 16 }, () => HEX[rnd() % 16]).join('') + '\n').join('');
    const copied = parse(encoder.encode(text));
    const buffer = textInputBuffer(text.length);
    buffer.set(encoder.encode(text));
    expect(parse(buffer)).toEqual(copied);
    expect(copied.n).toBe(500);
    // Parsed, the input's memory is let go: the next input gets memory of its own.
    expect(textInputBuffer(text.length).buffer).not.toBe(buffer.buffer);
  });
});

describe('pairLineBytes', () => {
  it('writes `a b distance` lines for the pairs asked for, at every digit count', () => {
    const values = [0, 1, 9, 10, 99, 100, 999, 1000, 65535, 65536, 999999999, 1000000000, 2 ** 31, 2 ** 32 - 1];
    const count = values.length * values.length;
    const pairs = { a: new Uint32Array(count), b: new Uint32Array(count), distance: new Uint8Array(count), count };
    let expected = '';
    for (let i = 0; i < count; i++) {
      pairs.a[i] = values[Math.floor(i / values.length)];
      pairs.b[i] = values[i % values.length];
      pairs.distance[i] = i % 65;
      if (i >= 3) expected += `${pairs.a[i]} ${pairs.b[i]} ${pairs.distance[i]}\n`;
    }
    expect(new TextDecoder().decode(pairLineBytes(pairs, 3, count))).toBe(expected);
    expect(pairLineBytes(pairs, 5, 5).length).toBe(0);
  });
});
