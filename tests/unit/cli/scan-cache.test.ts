/**
 * `simsift scan --cache FILE` held to a model: seeded random sequences of what a person does to a
 * folder between scans (add, edit, touch, delete, copy, rename, an edit that keeps size and
 * modification time, an excerpt of a file, a file with another appended, a changed cache or settings), each followed by a scan with the cache, whose CSV
 * must equal a fresh scan's (no cache) byte for byte. A failure prints the seed and the shortest
 * failing sequence. `SIMSIFT_CACHE_SEQUENCES` runs more sequences than CI's.
 */
import { copyFileSync, mkdirSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScan } from '../../../src/cli/scan-command.ts';
import { TEXTS } from '../corpus/corpus-model.ts';
import { mulberry32Unit as mulberry32 } from '../../fixtures/mulberry32.ts';
import { runCommand } from './run-command.ts';

const SEQUENCES = Number(process.env.SIMSIFT_CACHE_SEQUENCES ?? 3);
const FIRST_SEED = Number(process.env.SIMSIFT_CACHE_SEED ?? 1);
const STEPS = Number(process.env.SIMSIFT_CACHE_LENGTH ?? 4);

type Step =
  | { kind: 'add'; text: number }
  | { kind: 'edit'; file: number; word: number }
  | { kind: 'same-size-edit'; file: number }
  | { kind: 'touch'; file: number }
  | { kind: 'delete'; file: number }
  | { kind: 'copy'; file: number }
  | { kind: 'edited-copy'; file: number; word: number }
  | { kind: 'rename'; file: number }
  | { kind: 'damage-cache' }
  | { kind: 'reread' }
  | { kind: 'other-settings' }
  | { kind: 'excerpt'; file: number }
  | { kind: 'appended'; file: number; text: number };

const KINDS: Step['kind'][] = ['add', 'edit', 'same-size-edit', 'touch', 'delete', 'copy', 'edited-copy', 'rename', 'damage-cache', 'reread', 'other-settings', 'excerpt', 'appended'];

function randomSteps(seed: number): Step[] {
  const rand = mulberry32(seed);
  const pick = (n: number) => Math.floor(rand() * n);
  return Array.from({ length: STEPS }, (): Step => {
    const kind = KINDS[pick(KINDS.length)]!;
    if (kind === 'add') return { kind, text: pick(TEXTS.length) };
    if (kind === 'appended') return { kind, file: pick(1000), text: pick(TEXTS.length) };
    if (kind === 'edit' || kind === 'edited-copy') return { kind, file: pick(1000), word: pick(1000) };
    if (kind === 'damage-cache' || kind === 'reread' || kind === 'other-settings') return { kind };
    return { kind, file: pick(1000) };
  });
}

/** The folder's files in name order (so `file: i` picks one whatever the folder holds). */
const filesOf = (dir: string) => readdirSync(dir).sort();
const nth = (dir: string, i: number) => {
  const names = filesOf(dir);
  return names.length === 0 ? null : join(dir, names[i % names.length]!);
};

/** Replaces one word of the text with another word of the same length, or appends one. */
function changeWord(text: string, at: number, sameSize: boolean): string {
  const words = [...text.matchAll(/[A-Za-z]{4,}/g)];
  if (words.length === 0) return sameSize ? text.replace(/.$/s, (c) => (c === 'x' ? 'y' : 'x')) : `${text} changed`;
  const m = words[at % words.length]!;
  const word = m[0];
  const other = sameSize ? [...word].reverse().join('') === word ? word.replace(/^./, (c) => (c === 'Q' ? 'R' : 'Q')) : [...word].reverse().join('') : `${word}ly`;
  return text.slice(0, m.index) + other + text.slice(m.index! + word.length);
}

let counter = 0;

/** Files changed within 2 s before a cached scan are read again by the next one (cached-scan.ts): the starting folder waits that out. */
const pastRacyWindow = () => new Promise((resolve) => setTimeout(resolve, 2100));

/** Applies a step to the folder (or the cache); returns extra scan options for the cached scan. */
function apply(dir: string, cache: string, step: Step): string[] {
  const target = 'file' in step ? nth(dir, step.file) : null;
  switch (step.kind) {
    case 'add':
      writeFileSync(join(dir, `new-${++counter}.txt`), TEXTS[step.text]!);
      return [];
    case 'edit':
      if (target) writeFileSync(target, changeWord(readFileSync(target, 'utf8'), step.word, false));
      return [];
    case 'same-size-edit': {
      if (!target) return [];
      // Size and modification time kept (only the change time moves): the quick check must still see it.
      const before = statSync(target);
      const text = readFileSync(target, 'utf8');
      const changed = changeWord(text, 7, true);
      expect(Buffer.byteLength(changed)).toBe(Buffer.byteLength(text));
      writeFileSync(target, changed);
      utimesSync(target, before.atime, before.mtime);
      return [];
    }
    case 'touch':
      if (target) utimesSync(target, new Date(), new Date(Date.now() + 5000));
      return [];
    case 'delete':
      if (target) rmSync(target);
      return [];
    case 'copy':
      if (target) copyFileSync(target, join(dir, `copy-${++counter}.txt`));
      return [];
    case 'edited-copy':
      if (target) writeFileSync(join(dir, `edited-${++counter}.txt`), changeWord(readFileSync(target, 'utf8'), step.word, false));
      return [];
    case 'rename':
      if (target) renameSync(target, join(dir, `renamed-${++counter}.txt`));
      return [];
    case 'damage-cache':
      if (existsSync(cache)) {
        const bytes = readFileSync(cache);
        bytes[bytes.length >> 1] ^= 0x20;
        writeFileSync(cache, bytes);
      }
      return [];
    case 'excerpt': {
      // The middle half of a file's words: contained in it, far from it by Jaccard.
      if (!target) return [];
      const words = readFileSync(target, 'utf8').split(/\s+/);
      writeFileSync(join(dir, `excerpt-${++counter}.txt`), words.slice(Math.floor(words.length / 4), Math.floor((3 * words.length) / 4)).join(' '));
      return [];
    }
    case 'appended':
      if (target) writeFileSync(join(dir, `appended-${++counter}.txt`), `${readFileSync(target, 'utf8')}\n\n${TEXTS[step.text]!}`);
      return [];
    case 'reread':
      return ['--reread'];
    case 'other-settings':
      return ['--features', 'word1'];
  }
}

/** The CSV a scan writes, and its stderr. */
async function scan(dir: string, out: string, extra: string[]): Promise<{ csv: Buffer; err: string }> {
  const r = await runCommand(runScan, [dir, '--threads', '1', '--containment', '0.9', '--out', out, ...extra]);
  expect(r.code, r.err).toBe(0);
  return { csv: readFileSync(out), err: r.err };
}

/** A temporary folder holding TEXTS as t0.txt, t1.txt, ..., past the racy window, and a cache path beside it. */
async function textsFolder(): Promise<{ root: string; dir: string; cache: string }> {
  const root = mkdtempSync(join(tmpdir(), 'simsift-cache-'));
  const dir = join(root, 'folder');
  mkdirSync(dir);
  TEXTS.forEach((text, i) => writeFileSync(join(dir, `t${i}.txt`), text));
  await pastRacyWindow();
  return { root, dir, cache: join(root, 'scan.cache') };
}

/** Runs `steps` from a fresh folder; returns a description of the first mismatch, or null. */
async function runSequence(seed: number, steps: readonly Step[], stats: { notRead: number }, seen?: (csv: string) => void): Promise<string | null> {
  const root = mkdtempSync(join(tmpdir(), `simsift-cache-${seed}-`));
  const dir = join(root, 'folder');
  const cache = join(root, 'scan.cache');
  try {
    const base = mulberry32(seed * 7919);
    // The starting folder: a dozen texts, some exact copies and near copies among them.
    mkdirSync(dir);
    for (let i = 0; i < 12; i++) {
      const text = TEXTS[Math.floor(base() * TEXTS.length)]!;
      writeFileSync(join(dir, `doc-${String(i).padStart(2, '0')}.txt`), i % 5 === 4 ? changeWord(text, i, false) : text);
    }
    await pastRacyWindow();
    await scan(dir, join(root, 'first.csv'), ['--cache', cache]);
    for (const [i, step] of steps.entries()) {
      const extra = apply(dir, cache, step);
      const settings = extra.includes('--features') ? ['--features', 'word1'] : [];
      const cached = await scan(dir, join(root, 'cached.csv'), ['--cache', cache, ...extra]);
      const fresh = await scan(dir, join(root, 'fresh.csv'), settings);
      const notRead = /(\d+) files? not read/.exec(cached.err);
      if (notRead) stats.notRead += Number(notRead[1]);
      seen?.(cached.csv.toString('utf8'));
      if (!cached.csv.equals(fresh.csv)) {
        return `after step ${i + 1} (${step.kind}): the cached scan's CSV differs from a fresh scan's\n--- cached\n${cached.csv}\n--- fresh\n${fresh.csv}\n--- stderr\n${cached.err}`;
      }
    }
    return null;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The shortest failing sequence found by dropping one step at a time while it still fails. */
async function shrink(seed: number, steps: Step[]): Promise<Step[]> {
  let current = steps;
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = 0; i < current.length; i++) {
      const shorter = current.filter((_, j) => j !== i);
      if ((await runSequence(seed, shorter, { notRead: 0 })) !== null) {
        current = shorter;
        changed = true;
        break;
      }
    }
  }
  return current;
}

// Each sequence is a dozen scans of a second or two; a long run is given room in proportion.
describe('simsift scan --cache', { timeout: Math.max(600_000, SEQUENCES * 150_000) }, () => {
  it(`ends equal to a fresh scan after ${SEQUENCES} random sequences of changes (seeds from ${FIRST_SEED})`, async () => {
    const stats = { notRead: 0 };
    for (let seed = FIRST_SEED; seed < FIRST_SEED + SEQUENCES; seed++) {
      const steps = randomSteps(seed);
      const failure = await runSequence(seed, steps, stats);
      if (failure !== null) {
        const shortest = await shrink(seed, steps);
        expect.fail(`seed ${seed}: ${failure}\nshortest failing sequence: ${JSON.stringify(shortest)}`);
      }
    }
    console.log(`simsift scan --cache: seeds ${FIRST_SEED}..${FIRST_SEED + SEQUENCES - 1} end equal to a fresh scan`);
    // The cache did stand for files (a model where every file is read proves nothing).
    expect(stats.notRead).toBeGreaterThan(SEQUENCES * STEPS);
  });

  it('pairs a file edited out of its exact class with the class again (seed 3 found the merge measuring against a stand-in without contents)', async () => {
    const steps: Step[] = [{ kind: 'copy', file: 74 }, { kind: 'edit', file: 263, word: 552 }];
    expect(await runSequence(3, steps, { notRead: 0 })).toBeNull();
  });

  it('lists a new excerpt of a cached file and a new whole around a cached file as contained, as a fresh scan does', async () => {
    const steps: Step[] = [{ kind: 'excerpt', file: 2 }, { kind: 'appended', file: 5, text: 1 }];
    const rows: string[] = [];
    expect(await runSequence(4, steps, { notRead: 0 }, (csv) => rows.push(...csv.split('\r\n').filter((r) => r.includes(',contained,'))))).toBeNull();
    // After each step, the new file's pair (and after the second, the first's too) is in the cached scan's CSV.
    expect(rows.some((r) => /^,excerpt-\d+\.txt,doc-\d+\.txt,.*,contained,1\.0000$/.test(r))).toBe(true);
    expect(rows.some((r) => /^,doc-\d+\.txt,appended-\d+\.txt,.*,contained,1\.0000$/.test(r))).toBe(true);
  });

  it('made without --containment, serves a scan with it: the unchanged files read again only for their passages, and says so (before: not used, every file fingerprinted)', async () => {
    const { root, dir, cache } = await textsFolder();
    await scan(dir, join(root, 'a.csv'), ['--cache', cache, '--containment', '0']);
    const words = TEXTS[0]!.split(/\s+/);
    writeFileSync(join(dir, 'excerpt.txt'), words.slice(Math.floor(words.length / 4), Math.floor((3 * words.length) / 4)).join(' '));
    const on = await scan(dir, join(root, 'b.csv'), ['--cache', cache]);
    expect(on.err).toMatch(new RegExp(`cache: ${TEXTS.length} files not read \\(unchanged since the last scan\\); 1 read: 0 changed, 1 new.*made with --containment 0: its unchanged files read again for their passages \\(not fingerprinted\\)`));
    expect(on.csv.toString()).toMatch(/^,excerpt\.txt,t0\.txt,.*,contained,/m);
    expect(on.csv.equals((await scan(dir, join(root, 'c.csv'), [])).csv)).toBe(true);
    // The cache it wrote holds every text's passages: the next scan needs no file read again.
    const next = await scan(dir, join(root, 'd.csv'), ['--cache', cache]);
    expect(next.err).not.toMatch(/read again for their passages/);
    expect(next.csv.equals(on.csv)).toBe(true);
    rmSync(root, { recursive: true, force: true });
  });

  it('decides an edited file\'s pairs with unchanged files by their saved feature-set sizes and sketches, reading none of those they rule out (before: every one was read)', async () => {
    const { root, dir, cache } = await textsFolder();
    // t0 with a third more words after it: near by fingerprint, too far apart in size to reach 0.8.
    const words = TEXTS[3]!.split(/\s+/);
    writeFileSync(join(dir, 'longer.txt'), `${TEXTS[0]}\n${words.slice(0, Math.floor(TEXTS[0]!.split(/\s+/).length / 3)).join(' ')}`);
    await pastRacyWindow();
    // k = 64: every pair is a candidate, so t0 also meets unchanged files of about its size that are not near it (the sketches' pairs).
    await scan(dir, join(root, 'a.csv'), ['--cache', cache, '--k', '64']);
    writeFileSync(join(dir, 't0.txt'), `${TEXTS[0]} and one more sentence here.`);
    const cached = await scan(dir, join(root, 'b.csv'), ['--cache', cache, '--k', '64']);
    const fresh = await scan(dir, join(root, 'c.csv'), ['--k', '64']);
    expect(cached.csv.equals(fresh.csv)).toBe(true);
    const counts = (err: string) => /(\d+) rejected by the size bound, (\d+) by the sketches, \d+ measured, (\d+) files? read again/.exec(err)!.slice(1).map(Number);
    const [rejected, sketched, read] = counts(cached.err);
    const [freshRejected] = counts(fresh.err);
    // The fresh scan kept every set: what its bound rejected among t0's pairs, the cached scan rejects from the saved sizes.
    expect(rejected).toBeGreaterThan(0);
    expect(freshRejected).toBeGreaterThanOrEqual(rejected);
    // The pairs the sizes allow, the saved sketches decide (seen failing without them: 0 here, and files read).
    expect(sketched).toBeGreaterThan(0);
    expect(read).toBe(0);
    rmSync(root, { recursive: true, force: true });
  });

  it('gives an exact copy its text\'s saved feature-set size, so a copy that comes to stand for its text is not read again (before: it had none and was read)', async () => {
    const { root, dir, cache } = await textsFolder();
    // t0 with a copy after it (in path order, so t0 stands for their text), and t0 with a third more words: near by fingerprint, too far apart in size.
    writeFileSync(join(dir, 'u0-copy.txt'), TEXTS[0]!);
    const words = TEXTS[3]!.split(/\s+/);
    writeFileSync(join(dir, 'longer.txt'), `${TEXTS[0]}\n${words.slice(0, Math.floor(TEXTS[0]!.split(/\s+/).length / 3)).join(' ')}`);
    await pastRacyWindow();
    await scan(dir, join(root, 'a.csv'), ['--cache', cache]);
    // The original leaves: its copy stands for the text and is searched like a new file, against the edited longer one.
    rmSync(join(dir, 't0.txt'));
    writeFileSync(join(dir, 'longer.txt'), `${readFileSync(join(dir, 'longer.txt'), 'utf8')} again`);
    const cached = await scan(dir, join(root, 'b.csv'), ['--cache', cache]);
    expect(cached.csv.equals((await scan(dir, join(root, 'c.csv'), [])).csv)).toBe(true);
    const [rejected, read] = /(\d+) rejected by the size bound, \d+ by the sketches, \d+ measured, (\d+) files? read again/.exec(cached.err)!.slice(1).map(Number);
    expect(read).toBe(0);
    expect(rejected).toBeGreaterThan(0);
    rmSync(root, { recursive: true, force: true });
  });

  it('reads only the changed files and says why a cache is not used', async () => {
    const { root, dir, cache } = await textsFolder();
    const first = await scan(dir, join(root, 'a.csv'), ['--cache', cache]);
    expect(first.err).toMatch(/cache: none yet; every file read; wrote/);
    writeFileSync(join(dir, 't0.txt'), `${TEXTS[0]} and one more sentence here.`);
    const second = await scan(dir, join(root, 'b.csv'), ['--cache', cache]);
    expect(second.err).toMatch(new RegExp(`cache: ${TEXTS.length - 1} files not read \\(unchanged since the last scan\\); 1 read: 1 changed, 0 new, 0 with the same contents; 0 gone`));
    // Its phases say the merge with the cache, and that the merge's own steps are within it; a scan without a cache says neither.
    expect(second.err).toMatch(/phases \(s, wall clock \/ CPU of every thread; the merge's search, verification and grouping are within it\): .*, merging with the cache \d+\.\d\d \/ \d+\.\d\d, writing/);
    expect(first.err).toMatch(/phases \(s, wall clock \/ CPU of every thread\): (?!.*merging)/);
    const other = await scan(dir, join(root, 'c.csv'), ['--cache', cache, '--features', 'word1']);
    expect(other.err).toMatch(/cache: not used: it was made with word3, binary, this scan uses word1, binary; every file read/);
    writeFileSync(cache, 'not a cache');
    expect((await scan(dir, join(root, 'd.csv'), ['--cache', cache])).err).toMatch(/cache: not used: it is not a SimSift scan cache/);
    const inside = await runCommand(runScan, [dir, '--cache', join(dir, 'scan.cache')]);
    expect(inside.code).toBe(2);
    expect(inside.err).toMatch(/inside the folder being scanned/);
    const tfidf = await runCommand(runScan, [dir, '--cache', cache, '--weights', 'tfidf']);
    expect(tfidf.code).toBe(2);
    rmSync(root, { recursive: true, force: true });
  });
});
