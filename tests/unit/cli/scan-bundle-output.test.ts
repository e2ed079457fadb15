/**
 * `simsift scan --bundle FILE`: the bundle reads back (core decoder) as the scan it describes, with the
 * options it was asked with; it is never written over a scanned file; and the CLI's file times are whole
 * milliseconds, as a browser's are, so its keep rules decide as the page that opens the bundle does.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runScan } from '../../../src/cli/scan-command.ts';
import { decodeScanBundle } from '../../../src/core/export/scan-bundle.ts';
import { DocStatus } from '../../../src/core/documents/document-status.ts';
import { runCommand } from './run-command.ts';

const TEXT = Array.from({ length: 300 }, (_, i) => `word${(i * 7919) % 1000}`).join(' ');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function folder(): { root: string; out: string } {
  const root = mkdtempSync(join(tmpdir(), 'simsift-bundle-'));
  const out = mkdtempSync(join(tmpdir(), 'simsift-bundle-out-'));
  dirs.push(root, out);
  mkdirSync(join(root, 'sub'));
  writeFileSync(join(root, 'a.txt'), TEXT);
  writeFileSync(join(root, 'sub/b.txt'), TEXT);
  writeFileSync(join(root, 'c.txt'), `${TEXT} and one more sentence at the end`);
  writeFileSync(join(root, 'skip.log'), TEXT);
  writeFileSync(join(root, 'empty.txt'), '');
  // Times with fractions of a millisecond (a and b within the same millisecond).
  utimesSync(join(root, 'a.txt'), 1_700_000_000.0004, 1_700_000_000.0004);
  utimesSync(join(root, 'sub/b.txt'), 1_700_000_000.0007, 1_700_000_000.0007);
  return { root, out };
}

describe('simsift scan --bundle', () => {
  it('writes the scan as the page opens it: documents, whole-ms times, verified pairs, settings and exclusions', async () => {
    const { root, out } = folder();
    const file = join(out, 'scan.simsift');
    const r = await runCommand(runScan, [root, '--bundle', file, '--k', '16', '--exclude', '*.log', '--out', join(out, 'pairs.csv')]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`simsift scan: bundle ${file}: 4 documents, 1 verified pairs`);
    const b = await decodeScanBundle(new Uint8Array(readFileSync(file)));
    expect(b).toMatchObject({ root: realpathSync(root), k: 16, kAuto: false, threshold: 0.8, grouping: 'reference', exclusions: { patterns: ['*.log'], minSize: null, maxSize: null } });
    expect(b.documents.paths).toEqual(['a.txt', 'c.txt', 'empty.txt', 'sub/b.txt']);
    expect([...b.documents.modified.subarray(0, 1)]).toEqual([1_700_000_000_000]);
    expect(b.documents.modified[3]).toBe(1_700_000_000_000);
    expect(b.documents.status[2]).toBe(DocStatus.empty);
    // The one pair of different texts: c with one of the copies a, sub/b (whichever the scan fingerprinted:
    // copies are one text and carry its pairs, so either gives the same relation).
    expect(b.pairs.count).toBe(1);
    expect([[0, 1], [1, 3]]).toContainEqual([b.pairs.a[0], b.pairs.b[0]]);
    expect(b.pairs.jaccard[0]).toBeGreaterThan(0.8);
  });

  it('is never written over a scanned file', async () => {
    const { root } = folder();
    const r = await runCommand(runScan, [root, '--bundle', join(root, 'c.txt')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--bundle ".*c\.txt" is a file under/);
    expect(readFileSync(join(root, 'c.txt'), 'utf8')).toContain('one more sentence');
  });

  it('keeps by newest as a browser would: two copies within one millisecond tie, and the next rule decides', async () => {
    const { root, out } = folder();
    // Only the two copies: c.txt and skip.log, newer, would be their group's newest.
    rmSync(join(root, 'c.txt'));
    rmSync(join(root, 'skip.log'));
    const plan = join(out, 'plan.json');
    const r = await runCommand(runScan, [root, '--plan', plan, '--keep', 'newest']);
    expect(r.code, r.err).toBe(0);
    const rows = JSON.parse(readFileSync(plan, 'utf8')).rows as Array<{ path: string; role: string; reason: string }>;
    // sub/b.txt is 0.3 microseconds newer than a.txt: a browser sees both at 1,700,000,000,000 ms.
    expect(rows.find((row) => row.path === 'a.txt')).toMatchObject({ role: 'keep', reason: 'reference' });
    expect(rows.find((row) => row.path === 'sub/b.txt')).toMatchObject({ role: 'remove' });
  });
});
