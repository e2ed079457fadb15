/**
 * The containment quality bench's measure, small and seeded: a held-out set of real documents
 * (Debian's licences and copyright files) with excerpts and appended documents, scanned by
 * `simsift scan` in this process, its CSV scored against the exact truth. Fails when contained
 * documents are not found (as with --containment 0) or wrong ones are listed.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runScan } from '../../../src/cli/scan-command.ts';
import { containedTruth, heldOutCorpus, scoreContained, writeCorpus } from '../../../bench/containment-quality.ts';
import { runCommand } from '../cli/run-command.ts';

const root = mkdtempSync(join(tmpdir(), 'simsift-containment-quality-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.skipIf(!existsSync('/usr/share/common-licenses'))('contained documents on held-out real text', { timeout: 120_000 }, () => {
  it('finds the excerpts and the documents inside appended ones, and nothing else (recall and precision >= .95)', async () => {
    const docs = heldOutCorpus(60, 16, 8, 7);
    const dir = join(root, 'corpus');
    writeCorpus(dir, docs);
    const truth = await containedTruth(dir, docs.map((d) => d.path));
    const scanned = async (extra: string[]) => {
      const out = join(root, 'pairs.csv');
      const r = await runCommand(runScan, [dir, '--threads', '1', '--out', out, ...extra]);
      expect(r.code, r.err).toBe(0);
      return scoreContained(readFileSync(out, 'utf8'), docs, truth);
    };
    const s = await scanned(['--containment', '0.9']);
    expect(s.madePairs).toBeGreaterThanOrEqual(20);
    expect(s.recall).toBeGreaterThanOrEqual(0.95);
    expect(s.precision).toBeGreaterThanOrEqual(0.95);
    expect(s.unknownRows).toBe(0);
    const off = await scanned(['--containment', '0']);
    expect(off.found).toBe(0);
  });
});
