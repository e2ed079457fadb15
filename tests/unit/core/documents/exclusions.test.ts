import { describe, expect, it } from 'vitest';
import { exclusionMatcher, globRegExp, parseSize } from '../../../../src/core/documents/exclusions.ts';

describe('exclusions', () => {
  it('globs match a name, or the end of a path at a folder boundary', () => {
    expect(globRegExp('*.log').test('docs/a/run.log')).toBe(true);
    expect(globRegExp('*.log').test('docs/a/run.log.txt')).toBe(false);
    expect(globRegExp('drafts/**').test('docs/drafts/x/y.txt')).toBe(true);
    expect(globRegExp('drafts/**').test('docs/mydrafts/y.txt')).toBe(false);
    expect(globRegExp('**/tmp/*.txt').test('tmp/a.txt')).toBe(true);
    expect(globRegExp('a?.txt').test('d/ab.txt')).toBe(true);
    expect(globRegExp('a?.txt').test('d/a/b.txt')).toBe(false);
    expect(globRegExp('c++.txt').test('c++.txt')).toBe(true);
  });

  it('says which rule excluded a file: pattern, extension, size', () => {
    const ex = exclusionMatcher({ patterns: ['drafts/**'], extensions: ['.LOG', 'tmp'], minSize: 10, maxSize: 1000 });
    expect(ex('docs/drafts/a.txt', 50)).toBe('pattern drafts/**');
    expect(ex('docs/run.log', 50)).toBe('extension .log');
    expect(ex('docs/x.TMP', 50)).toBe('extension .tmp');
    expect(ex('docs/small.txt', 9)).toBe('smaller than 10 bytes');
    expect(ex('docs/big.txt', 1001)).toBe('larger than 1000 bytes');
    expect(ex('docs/ok.txt', 10)).toBeNull();
    expect(ex('docs/ok.txt')).toBeNull(); // size unknown: only names decide
  });

  it('reads sizes with units', () => {
    expect(parseSize('1000')).toBe(1000);
    expect(parseSize('10k')).toBe(10_000);
    expect(parseSize('5MB')).toBe(5_000_000);
    expect(parseSize('2MiB')).toBe(2 * 1024 * 1024);
    expect(parseSize('-1')).toBeNull();
    expect(parseSize('ten')).toBeNull();
  });
});
