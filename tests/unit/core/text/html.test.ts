import { describe, expect, it } from 'vitest';
import { decodeEntities, isHtmlName, readableHtmlText, stripHtml } from '../../../../src/core/text/html.ts';
import { createFingerprinter } from '../../../../src/core/simhash/fingerprinter.ts';
import { DEFAULT_SETTINGS, type FeatureSpec } from '../../../../src/core/simhash/settings.ts';

const words = (s: string) => s.split(/\s+/).filter(Boolean).join(' ');

describe('stripHtml', () => {
  it('keeps visible text, drops tags, comments, scripts and styles', () => {
    const html = `<!DOCTYPE html><html><head><title>T</title><style>p { color: red }</style>
      <script type="module">if (a < b && c > d) alert("x</p>")</script></head>
      <body><!-- a comment <p>hidden</p> --><p>Hello<br>world</p><div>two&nbsp;&amp; three</div></body></html>`;
    expect(words(stripHtml(html))).toBe('T Hello world two & three');
  });

  it('treats a bare < as text and keeps words apart across tags', () => {
    expect(words(stripHtml('a < b and c<b>d</b>e'))).toBe('a < b and c d e');
  });

  it('drops everything after an unclosed script instead of scanning it again and again', () => {
    const hostile = '<p>kept</p>' + '<script>'.repeat(20000) + 'x';
    // Finishing at all is the point: scanning the rest again at each of 20,000 opening tags would not
    // end within the test's time-out.
    expect(words(stripHtml(hostile))).toBe('kept');
  });

  it('is case-insensitive for raw-text elements', () => {
    expect(words(stripHtml('<SCRIPT>var x</SCRIPT>ok<Style>a{}</STYLE>'))).toBe('ok');
  });
});

describe('stripHtml tag names', () => {
  it('skips raw-text bodies whatever the case of the name, and only for exactly those names', () => {
    expect(words(stripHtml('a<SCRIPT type="x">b < c</script>d<Style>e</STYLE >f<textarea>g</textarea>h'))).toBe('a d f h');
    expect(words(stripHtml('a<scripts>b</scripts>c<noscript-x>d</noscript-x>e<stylesheet>f'))).toBe('a b c d e f');
  });

  it('treats a tag named like an Object property (constructor) as an ordinary tag', () => {
    // The raw-text lookup used to find Object.prototype.constructor here and throw.
    expect(words(stripHtml('<constructor>kept text</constructor> after'))).toBe('kept text after');
  });
});

describe('decodeEntities', () => {
  it('decodes named, decimal and hex references and leaves unknown ones', () => {
    expect(decodeEntities('&lt;&#65;&#x42;&eacute;&bogus;&#0;')).toBe('<ABé&bogus;\uFFFD');
  });
});

describe('isHtmlName', () => {
  it('matches .html, .htm and .xhtml in any case', () => {
    expect(['a.html', 'b.HTM', 'c.xhtml'].map(isHtmlName)).toEqual([true, true, true]);
    expect(['a.txt', 'html', 'a.html.txt'].map(isHtmlName)).toEqual([false, false, false]);
  });
});

describe('readableHtmlText', () => {
  // The shape of a linux-doc navigation page: its markup's indentation and line breaks, a title, links.
  const page = `<!DOCTYPE html>\n<html>\n  <head>\n    <title>cdrom &mdash; The Linux Kernel documentation</title>\n    <meta charset="utf-8">\n    <link rel="stylesheet">\n  </head>\n  <body>\n    <div class="nav">\n      <ul>\n        <li>\n          <a href="a.html">Core API Documentation</a>\n        </li>\n        <li>\n          <a href="b.html">The Linux driver implementer's API guide</a>\n        </li>\n      </ul>\n    </div>\n    <pre>\n  int x = 1;\n    return x;\n</pre>\n  </body>\n</html>\n`;

  it('keeps no blank run longer than one line and no trailing spaces, but every word and indentation (a pane of whitespace before)', () => {
    const stripped = stripHtml(page);
    const readable = readableHtmlText(stripped);
    expect(stripped).toMatch(/\n[ ]*\n[ ]*\n/);
    expect(readable).not.toMatch(/\n\n\n|[ \t]\n/);
    expect(readable.startsWith('cdrom')).toBe(true);
    expect(readable).toContain('\n  int x = 1;\n    return x;');
    expect(words(readable)).toBe(words(stripped));
  });

  it('leaves the features the pair view measures unchanged, for word shingles, words and character n-grams', () => {
    const stripped = stripHtml(page);
    const kinds: FeatureSpec[] = [{ kind: 'word-shingle', n: 3 }, { kind: 'word', n: 1 }, { kind: 'char-ngram', n: 5 }];
    for (const features of kinds) {
      const fp = createFingerprinter({ ...DEFAULT_SETTINGS, features });
      expect([...fp.featureSet(readableHtmlText(stripped))]).toEqual([...fp.featureSet(stripped)]);
    }
  });
});
