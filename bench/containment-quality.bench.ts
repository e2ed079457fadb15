/**
 * `npm run bench -- containment-quality [--bases 1200] [--excerpts 300] [--appended 150] [--keep DIR] [--json]`:
 * recall and precision of contained documents on a held-out set of real text (bench/containment-quality.ts),
 * scored from what a user takes away: `node bin/simsift.js scan DIR --out pairs.csv`, the CSV's rows of
 * relation `contained` against the exact truth (containment >= 0.9, Jaccard < 0.8). Then the same scan
 * with `--containment 0`: its near-duplicate rows must be the default scan's, row for row (containment
 * leaves the near-duplicate relation as it was). Not a timing: the scans' seconds are shown only.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { containedTruth, heldOutCorpus, scoreContained, writeCorpus } from './containment-quality.ts';
import { benchOptions, JSON_OPTION, numberOption, report } from './harness.ts';

const USAGE = 'usage: npm run bench -- containment-quality [--bases 1200] [--excerpts 300] [--appended 150] [--keep DIR] [--json]';
const OPTIONS = { bases: { type: 'string' }, excerpts: { type: 'string' }, appended: { type: 'string' }, keep: { type: 'string' }, ...JSON_OPTION } as const;
const SIMSIFT = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'simsift.js');

/** Runs `simsift scan dir --out out ...extra` as a child process; returns the CSV it wrote and the seconds it took. */
function scan(dir: string, out: string, extra: string[]): { csv: string; seconds: number; stderr: string } {
  const t0 = performance.now();
  const child = spawnSync(process.execPath, [SIMSIFT, 'scan', dir, '--out', out, ...extra], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (child.status !== 0) throw new Error(`simsift scan exited with ${child.status}: ${child.stderr}`);
  return { csv: readFileSync(out, 'utf8'), seconds: (performance.now() - t0) / 1000, stderr: child.stderr.trim() };
}

/** The near-duplicate rows of a pairs CSV, as written (the relation and containment cells dropped). */
function nearDuplicateRows(csv: string): string[] {
  return csv
    .split('\r\n')
    .slice(1)
    .filter((row) => row.endsWith(',near-duplicate,'))
    .map((row) => row.slice(0, -',near-duplicate,'.length));
}

export async function main(args: string[]): Promise<void> {
  const values = benchOptions(args, OPTIONS, USAGE);
  if (!values) return;
  const docs = heldOutCorpus(numberOption(values.bases, 1200, 'bases'), numberOption(values.excerpts, 300, 'excerpts'), numberOption(values.appended, 150, 'appended'));
  const root = values.keep ?? mkdtempSync(join(tmpdir(), 'simsift-containment-'));
  const dir = join(root, 'corpus');
  try {
    writeCorpus(dir, docs);
    const truth = await containedTruth(dir, docs.map((d) => d.path));
    const on = scan(dir, join(root, 'pairs.csv'), ['--containment', '0.9']);
    const off = scan(dir, join(root, 'pairs-off.csv'), ['--containment', '0']);
    const s = scoreContained(on.csv, docs, truth);
    const nearOn = nearDuplicateRows(on.csv);
    const nearOff = nearDuplicateRows(off.csv);
    const figures = {
        documents: docs.length,
        bases: docs.filter((d) => d.kind === 'base').length,
        excerpts: docs.filter((d) => d.kind === 'excerpt').length,
        appended: docs.filter((d) => d.kind === 'appended').length,
        truePairs: s.truePairs,
        found: s.found,
        recall: Number(s.recall.toFixed(4)),
        precision: Number(s.precision.toFixed(4)),
        madeDocumentRecall: Number((s.madeFound / Math.max(1, s.madePairs)).toFixed(4)),
        madePairs: s.madePairs,
        unknownRows: s.unknownRows,
        nearDuplicateRows: nearOn.length,
        nearDuplicateRowsUnchanged: nearOn.length === nearOff.length && nearOn.every((row, i) => row === nearOff[i]),
        scanSeconds: Number(on.seconds.toFixed(1)),
        scanSecondsWithoutContainment: Number(off.seconds.toFixed(1)),
    };
    if (!values.json) for (const [name, value] of Object.entries(figures)) console.log(`${name}: ${value}`);
    report('containment-quality', figures, values);
  } finally {
    if (values.keep === undefined) rmSync(root, { recursive: true, force: true });
  }
}
