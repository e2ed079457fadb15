import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { displayName, displayPath, escapeBidi, hasHiddenControls } from '../../../src/ui/shared/display-name.ts';
import { PathName } from '../../../src/ui/shared/PathName.tsx';

describe('escapeBidi', () => {
  it('shows a right-to-left override visibly, so rtl-\\u202Etxt.exe cannot pass for rtl-exe.txt', () => {
    expect(escapeBidi('rtl-\u202Etxt.exe')).toBe('rtl-⟨U+202E⟩txt.exe');
    expect(hasHiddenControls('rtl-\u202Etxt.exe')).toBe(true);
    expect(hasHiddenControls('plain.txt')).toBe(false);
  });
  it('escapes every bidi control: embeddings, overrides, isolates and marks', () => {
    const controls = [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c];
    for (const c of controls) {
      const hex = c.toString(16).toUpperCase().padStart(4, '0');
      expect(escapeBidi(`a${String.fromCodePoint(c)}b`)).toBe(`a⟨U+${hex}⟩b`);
    }
    expect(escapeBidi('line\nbreak\ttab')).toBe('line⟨U+000A⟩break⟨U+0009⟩tab');
  });
  it('leaves ordinary text alone, right-to-left letters included (they are isolated, not escaped)', () => {
    for (const s of ['Grüße.txt', 'שלום.txt', 'مرحبا.txt', '東京/レポート.md', '<img src=x onerror=alert(1)>.txt']) expect(escapeBidi(s)).toBe(s);
  });
});

describe('displayPath', () => {
  it('splits folder and file name, escaped', () => {
    expect(displayPath('a/b/c.txt')).toEqual({ dir: 'a/b/', name: 'c.txt', full: 'a/b/c.txt', shortened: false });
    expect(displayPath('c.txt')).toEqual({ dir: '', name: 'c.txt', full: 'c.txt', shortened: false });
    expect(displayPath('x/\u202Eevil.txt').name).toBe('⟨U+202E⟩evil.txt');
  });
  it('shortens a long path in the middle of its folder and keeps the file name whole', () => {
    const path = 'archive/2019/projects/customer-letters/drafts/old/final-final-report.docx.txt';
    const p = displayPath(path, 50);
    expect(p.name).toBe('final-final-report.docx.txt');
    expect(p.shortened).toBe(true);
    expect((p.dir + p.name).length).toBe(50);
    expect(p.dir).toBe('archive/201…drafts/old/');
    expect(p.full).toBe(path);
    // Short enough: untouched.
    expect(displayPath(path, 200).dir).toBe('archive/2019/projects/customer-letters/drafts/old/');
  });
  it('keeps even a very long file name whole, the folder shrinking to …/', () => {
    const name = `${'long-name-'.repeat(8)}.txt`;
    const p = displayPath(`folder/sub/${name}`, 30);
    expect(p).toEqual({ dir: '…/', name, full: `folder/sub/${name}`, shortened: true });
  });
  it('gives the whole escaped path for accessible names', () => {
    expect(displayName('dir/rtl-\u202Etxt.exe')).toBe('dir/rtl-⟨U+202E⟩txt.exe');
  });
});

describe('PathName', () => {
  it('renders the path isolated in <bdi>, escaped, with the full path in its title', () => {
    const html = renderToStaticMarkup(createElement(PathName, { path: 'very/long/folder/name/here/rtl-\u202Etxt.exe', maxChars: 30 }));
    expect(html).toMatch(/^<bdi class="ss-path" title="very\/long\/folder\/name\/here\/rtl-⟨U\+202E⟩txt.exe">/);
    expect(html).toContain('<span class="ss-path-name">rtl-⟨U+202E⟩txt.exe</span>');
    expect(html).toContain('…');
    expect(html).not.toContain('\u202E');
  });
});
