import { describe, expect, it } from 'vitest';
import { decodeText } from '../../../../src/core/text/decode.ts';

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
});
