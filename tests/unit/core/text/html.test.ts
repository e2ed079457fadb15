import { describe, expect, it } from 'vitest';
import { decodeEntities, isHtmlName, stripHtml } from '../../../../src/core/text/html.ts';

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
