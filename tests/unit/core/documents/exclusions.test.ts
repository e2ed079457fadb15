import { describe, expect, it } from 'vitest';
import { exclusionMatcher, globMatcher, parseSize } from '../../../../src/core/documents/exclusions.ts';

describe('exclusions', () => {
  it('globs match a name, or the end of a path at a folder boundary', () => {
    expect(globMatcher('*.log')('docs/a/run.log')).toBe(true);
    expect(globMatcher('*.log')('docs/a/run.log.txt')).toBe(false);
    expect(globMatcher('drafts/**')('docs/drafts/x/y.txt')).toBe(true);
    expect(globMatcher('drafts/**')('docs/mydrafts/y.txt')).toBe(false);
    expect(globMatcher('**/tmp/*.txt')('tmp/a.txt')).toBe(true);
    expect(globMatcher('a?.txt')('d/ab.txt')).toBe(true);
    expect(globMatcher('a?.txt')('d/a/b.txt')).toBe(false);
    expect(globMatcher('c++.txt')('c++.txt')).toBe(true);
  });

  it('matches in one pass per name: no blow-up on names built to make a backtracking matcher try every split', () => {
    const star = globMatcher('*-*-*-*-*-*.log');
    // 20,000 hyphens: a backtracking regular expression would try about 20,000^5 / 120 ways here.
    expect(star(`${'a-'.repeat(20_000)}b.txt`)).toBe(false);
    expect(star(`d/${'a-'.repeat(20_000)}b.log`)).toBe(true);
    const deep = globMatcher('**/x/**/*-*-*.txt');
    expect(deep(`${'a/'.repeat(10_000)}x/${'b-'.repeat(10_000)}`)).toBe(false);
    expect(deep(`${'a/'.repeat(100)}x/y/1-2-3.txt`)).toBe(true);
    expect(globMatcher('**/tmp/*.txt')('a/b/tmp/c.txt')).toBe(true);
    expect(globMatcher('**/tmp/*.txt')('a/b/xtmp/c.txt')).toBe(false);
    expect(globMatcher('a/**/b')('a/b')).toBe(true); // `**` and its '/' may match no folder at all
    expect(globMatcher('a/**/b')('a/c/d/b')).toBe(true);
    expect(globMatcher('a/**/b')('a/cb')).toBe(false);
    expect(globMatcher('a/**b')('x/a/yb')).toBe(true);
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
