import { describe, expect, it } from 'vitest';
import { binaryReason, countUtf8, decodeText, createUtf8Counter } from '../../../../src/core/text/decode.ts';
import { mulberry32Unit } from '../../../fixtures/mulberry32.ts';
import { documentText } from '../../../../src/core/text/document-text.ts';

const utf8 = (s: string) => new TextEncoder().encode(s);

function utf16(s: string, bigEndian: boolean): Uint8Array {
  const out = new Uint8Array(2 + s.length * 2);
  out[0] = bigEndian ? 0xfe : 0xff;
  out[1] = bigEndian ? 0xff : 0xfe;
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i);
    out[2 + 2 * i + (bigEndian ? 0 : 1)] = u >> 8;
    out[2 + 2 * i + (bigEndian ? 1 : 0)] = u & 0xff;
  }
  return out;
}

describe('decodeText', () => {
  it('reads UTF-8 without a BOM', () => {
    expect(decodeText(utf8('Grüße, 東京 😀'))).toEqual({ ok: true, text: 'Grüße, 東京 😀', encoding: 'utf-8' });
  });

  it('reads UTF-8 with a BOM and drops the BOM', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('héllo')]);
    expect(decodeText(bytes)).toEqual({ ok: true, text: 'héllo', encoding: 'utf-8' });
  });

  it('reads UTF-16 LE and BE with their BOMs, including surrogate pairs', () => {
    const s = 'Straße 東京 😀 end';
    expect(decodeText(utf16(s, false))).toEqual({ ok: true, text: s, encoding: 'utf-16le' });
    expect(decodeText(utf16(s, true))).toEqual({ ok: true, text: s, encoding: 'utf-16be' });
  });

  // A UTF-16 file without a BOM was refused as "binary file: NUL byte at offset 0" (failed before).
  it('reads UTF-16 LE and BE without a BOM when most units have a NUL byte, and says which', () => {
    const s = 'Straße, naïve café.\r\nA second line with Ünïcode and 東 once.\r\n';
    expect(decodeText(utf16(s, false).subarray(2))).toEqual({ ok: true, text: s, encoding: 'utf-16le' });
    expect(decodeText(utf16(s, true).subarray(2))).toEqual({ ok: true, text: s, encoding: 'utf-16be' });
  });

  it('keeps calling binary what only looks like UTF-16: control units, NULs on both sides, too few bytes', () => {
    const controls = new Uint8Array(400).map((_, i) => (i & 1 ? 0 : 1 + (i % 7)));
    const ints = new Uint8Array(400).map((_, i) => (i % 4 === 0 ? 0x41 : 0));
    for (const bytes of [controls, ints, Uint8Array.from([0x41, 0])]) {
      const r = decodeText(bytes);
      expect(r.ok).toBe(false);
    }
  });

  it('falls back to windows-1252 for bytes that are not valid UTF-8 (Latin-1 files)', () => {
    // "café naïve €5" in windows-1252: é=E9, ï=EF, €=80
    const bytes = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x20, 0x6e, 0x61, 0xef, 0x76, 0x65, 0x20, 0x80, 0x35]);
    expect(decodeText(bytes)).toEqual({ ok: true, text: 'café naïve €5', encoding: 'windows-1252' });
  });

  it('maps every windows-1252 byte as the WHATWG table does', () => {
    const all = new Uint8Array(256 - 32);
    for (let i = 0; i < all.length; i++) all[i] = i + 32;
    all[0] = 0xff; // make the bytes invalid UTF-8 right away
    const r = decodeText(all);
    expect(r.ok && r.encoding).toBe('windows-1252');
    const text = r.ok ? r.text : '';
    expect(text.length).toBe(all.length);
    expect(text[0x80 - 32]).toBe('€');
    expect(text[0x92 - 32]).toBe('\u2019');
    expect(text[0x9f - 32]).toBe('Ÿ');
    expect(text[0x81 - 32]).toBe('\u0081');
    expect(text[0xe9 - 32]).toBe('é');
    expect(text[0x41 - 32]).toBe('A');
  });

  it('refuses a file with a NUL byte in its first 8 KB as binary', () => {
    const bytes = utf8('PK\u0003\u0004 looks like a zip\u0000\u0000');
    const r = decodeText(bytes);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.reason).toBe('binary');
      expect(r.message).toMatch(/NUL byte at offset 21/);
    }
  });

  it('does not look for NUL bytes past the first 8 KB', () => {
    const bytes = new Uint8Array(9000).fill(0x61);
    bytes[8500] = 0;
    expect(decodeText(bytes).ok).toBe(true);
  });

  it('refuses mostly-control-byte files as binary but keeps text with tabs, newlines and ESC', () => {
    const control = new Uint8Array(1000);
    for (let i = 0; i < control.length; i++) control[i] = i % 2 ? 0x01 + (i % 7) : 0x41;
    const r = decodeText(control);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/control bytes/);
    expect(decodeText(utf8('a\tb\r\nc\fd\u001b[0m\n'.repeat(100))).ok).toBe(true);
  });

  it('reads an empty file as empty text', () => {
    expect(decodeText(new Uint8Array(0))).toEqual({ ok: true, text: '', encoding: 'utf-8' });
  });

  it('reads a UTF-8 file with three bad bytes as UTF-8 with U+FFFD for them, not as windows-1252 mojibake', () => {
    const clean = 'Grüße aus Köln: café, naïve, déjà vu, 東京. '.repeat(20);
    const [p1, p2, p3, p4] = [clean.slice(0, 100), clean.slice(100, 300), clean.slice(300, 500), clean.slice(500)];
    // Three stray bytes between characters: a lone continuation byte, 0xFF, and a lead byte before ASCII.
    const bad = new Uint8Array([...utf8(p1), 0x80, ...utf8(p2), 0xff, ...utf8(p3), 0xe9, ...utf8(p4)]);
    const r = decodeText(bad);
    expect(r.ok && r.encoding).toBe('utf-8');
    expect(r.ok && r.invalidBytes).toBe(3);
    const text = r.ok ? r.text : '';
    expect(text).toBe(`${p1}\uFFFD${p2}\uFFFD${p3}\uFFFD${p4}`);
    expect(text).not.toContain('Ã');
    // A 3-byte sequence cut short by an ASCII letter: its two bytes are one U+FFFD.
    const cut = new Uint8Array([...utf8(clean.slice(0, 50)), 0xe2, 0x82, 0x41, ...utf8(clean.slice(50))]);
    const c = decodeText(cut);
    expect(c.ok && [c.encoding, c.invalidBytes]).toEqual(['utf-8', 2]);
    expect(c.ok && c.text.includes('\uFFFDA')).toBe(true);
  });

  it('keeps Latin-1 (no well-formed UTF-8 at all) as windows-1252, without an invalid-byte count', () => {
    const latin1 = Uint8Array.from('Grüße aus Köln, café au lait', (ch) => ch.charCodeAt(0));
    const r = decodeText(latin1);
    expect(r).toEqual({ ok: true, text: 'Grüße aus Köln, café au lait', encoding: 'windows-1252' });
  });

  it('trusts a UTF-8 BOM even when every non-ASCII byte is bad', () => {
    const r = decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0xe9, 0x62]));
    expect(r).toEqual({ ok: true, text: 'a\uFFFDb', encoding: 'utf-8', invalidBytes: 1 });
  });

  it('counts invalid UTF-8 like the WHATWG decoder, also across pieces', () => {
    const samples = [
      [0xc3, 0x28, 0xa0, 0xa1],
      [0xf0, 0x9f, 0x98],
      [0xed, 0xa0, 0x80],
      [0xe0, 0x80, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0x61, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80],
    ].map((b) => Uint8Array.from(b));
    for (const bytes of samples) {
      const replacements = new TextDecoder().decode(bytes).split('\uFFFD').length - 1;
      expect(countUtf8(bytes).invalidSequences, String(bytes)).toBe(replacements);
      const counter = createUtf8Counter();
      for (const b of bytes) counter.push(Uint8Array.of(b));
      expect(counter.end()).toEqual(countUtf8(bytes));
    }
    expect(countUtf8(samples[5])).toEqual({ multibyte: 3, invalidSequences: 0, invalidBytes: 0 });
  });
});

describe('documentText', () => {
  it('decodes with the one decoder and strips HTML by the file name, as a scan does', () => {
    const page = utf8('<html><body><p>caf\u00e9</p><script>x()</script></body></html>');
    const r = documentText(page, 'dir/page.html');
    expect(r.ok && [r.text.trim(), r.html, r.invalidBytes]).toEqual(['café', true, 0]);
    const plain = documentText(page, 'page.txt');
    expect(plain.ok && plain.text).toContain('<script>');
    expect(documentText(new Uint8Array([0x50, 0x4b, 0, 0]), 'a.zip').ok).toBe(false);
  });
});

describe('binaryReason', () => {
  /** The rule byte by byte, as it was written before the four-bytes-at-a-time skip. */
  function reference(bytes: Uint8Array): string | null {
    const n = Math.min(bytes.length, 8192);
    let control = 0;
    for (let i = 0; i < n; i++) {
      const b = bytes[i];
      if (b === 0) return `binary file: NUL byte at offset ${i}`;
      if ((b < 0x20 && ![0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b].includes(b)) || b === 0x7f) control++;
    }
    return n > 0 && control / n > 0.3 ? `binary file: ${Math.round((100 * control) / n)}% control bytes in the first ${n} bytes` : null;
  }

  it('finds the same NUL offsets and control shares as a byte-by-byte scan, at every alignment', () => {
    const next = mulberry32Unit(3);
    const alphabet = [0x00, 0x01, 0x07, 0x09, 0x0a, 0x1b, 0x1f, 0x20, 0x41, 0x7e, 0x7f, 0x80, 0xc3, 0xff];
    for (let round = 0; round < 3000; round++) {
      const length = Math.floor(next() * 40) + (round % 50 === 0 ? 9000 : 0);
      const buffer = new Uint8Array(length + 3);
      const controlish = next();
      for (let i = 0; i < buffer.length; i++) buffer[i] = next() < controlish ? alphabet[Math.floor(next() * alphabet.length)] : 0x61;
      const bytes = buffer.subarray(round % 4, round % 4 + length);
      expect(binaryReason(bytes)).toBe(reference(bytes));
    }
  });
});

// Issue #35: UTF-32 with a BOM was read as UTF-16 (FF FE 00 00) or called binary (00 00 FE FF). Failed before.
describe('UTF-32 with a byte order mark', () => {
  const utf32 = (text: string, bigEndian: boolean) => {
    const points = [0xfeff, ...Array.from(text, (c) => c.codePointAt(0)!)];
    const view = new DataView(new ArrayBuffer(4 * points.length));
    points.forEach((p, i) => view.setUint32(4 * i, p, !bigEndian));
    return new Uint8Array(view.buffer);
  };
  const text = 'Grüße, naïve café — 𝄞 music ';

  it('decodes LE and BE, in decodeText and in the workers\' byte path alike', async () => {
    const { normalizedUtf8, createUtf8Buffer } = await import('../../../../src/core/text/normalized-utf8.ts');
    const { normalizeText } = await import('../../../../src/core/text/normalize.ts');
    for (const bigEndian of [false, true]) {
      expect(decodeText(utf32(text, bigEndian))).toEqual({ ok: true, text, encoding: bigEndian ? 'utf-32be' : 'utf-32le' });
      const r = normalizedUtf8(utf32(text.repeat(10), bigEndian), 'a.txt', createUtf8Buffer());
      expect(r.ok && new TextDecoder().decode(r.utf8)).toBe(normalizeText(text.repeat(10)));
    }
  });

  it('marks a unit that is no character as a lossy decode', () => {
    const bytes = utf32('ab', false);
    new DataView(bytes.buffer).setUint32(4, 0x110000, true);
    expect(decodeText(bytes)).toEqual({ ok: true, text: '\uFFFDb', encoding: 'utf-32le', invalidBytes: 4 });
  });
});

// Issue #35: a UTF-16 file holding an unpaired surrogate decoded to U+FFFD without saying so, so two
// files differing only in their damaged units were called identical copies. Failed before.
describe('UTF-16 with damaged units', () => {
  it('marks a lone surrogate (either half, either byte order) as a lossy decode of its 2 bytes', () => {
    for (const bigEndian of [false, true]) {
      for (const lone of ['\uD800', '\uDBFF', '\uDC00', '\uDFFF']) {
        const r = decodeText(utf16(`ab${lone}c`, bigEndian));
        expect(r).toEqual({ ok: true, text: 'ab\uFFFDc', encoding: bigEndian ? 'utf-16be' : 'utf-16le', invalidBytes: 2 });
      }
      // A low half before its high half is two lone surrogates; one at the very end is lone too.
      expect(decodeText(utf16('x\uDC00\uD800y\uD83D', bigEndian))).toMatchObject({ text: 'x\uFFFD\uFFFDy\uFFFD', invalidBytes: 6 });
    }
  });

  it('marks an odd last byte as a lossy decode of 1 byte; a well-formed pair is not lossy', () => {
    const odd = new Uint8Array([...utf16('ab', false), 0x63]);
    expect(decodeText(odd)).toEqual({ ok: true, text: 'ab\uFFFD', encoding: 'utf-16le', invalidBytes: 1 });
    expect(decodeText(utf16('a😀b', true))).toEqual({ ok: true, text: 'a😀b', encoding: 'utf-16be' });
  });
});
