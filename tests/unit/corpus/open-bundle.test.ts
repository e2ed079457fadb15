/**
 * Opening a `simsift scan --bundle` result (#36) through the real controller, scan session and worker
 * APIs on fake-indexeddb, the bundle made by the real CLI from the same files on disk: a folder that does
 * not match and a "keep" answer change nothing stored; opened, no file is read and the result equals a
 * fresh page scan of the folder, after a reload too; a file edited since is read, named, and the result
 * still equals a fresh scan.
 */
import 'fake-indexeddb/auto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { closeCorpusDb } from '../../../src/storage/database.ts';
import { getCorpusSummary } from '../../../src/storage/corpus-repository.ts';
import { getFolderHandle, putFolderHandles } from '../../../src/storage/folder-handles.ts';
import { getFolderRoots, setFolderRoots } from '../../../src/storage/folder-roots.ts';
import { runScan } from '../../../src/cli/scan-command.ts';
import { decodeScanBundle, type ScanBundle } from '../../../src/core/export/scan-bundle.ts';
import { runCommand } from '../cli/run-command.ts';
import { edited, exportsOf, fileOf, filesOf, freshExportsOf, settled, TEXTS, type Disk, type Tab, tabsPerTest } from './corpus-model.ts';

const tab = tabsPerTest('open-bundle');
const dir = mkdtempSync(join(tmpdir(), 'simsift-open-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeDisk(disk: Disk): void {
  rmSync(join(dir, 'f'), { recursive: true, force: true });
  for (const [path, [text, time]] of disk) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
    utimesSync(join(dir, path), time / 1000, time / 1000);
  }
}

/** `simsift scan DIR/f --bundle`: paths relative to f, which the page asks for by name. */
async function cliBundle(disk: Disk): Promise<ScanBundle> {
  writeDisk(disk);
  const file = join(dir, `scan-${Math.random()}.simsift`);
  const r = await runCommand(runScan, [join(dir, 'f'), '--bundle', file]);
  expect(r.code, r.err).toBe(0);
  return decodeScanBundle(new Uint8Array(readFileSync(file)));
}

/** Opens the bundle beside `files`, answering the replace question with `answer` when it is asked. */
async function open(t: Tab, bundle: ScanBundle, files: File[], answer?: boolean) {
  const outcome = t.persistence.openBundle(bundle, { kind: 'file-list', files, sync: true });
  if (answer !== undefined) {
    await vi.waitFor(() => expect(t.persistence.getSnapshot().confirmation).not.toBeNull(), { timeout: 10_000 });
    t.persistence.answer(answer);
  }
  const done = await outcome;
  await settled(t);
  return done;
}

describe('opening a CLI result beside its folder', () => {
  it('changes nothing for a folder that is not its own or a "keep"; opened, reads no file and equals a fresh scan; an edit is read and named', async () => {
    const disk: Disk = new Map();
    TEXTS.forEach((text, i) => disk.set(`f/t${i}.txt`, [text, 1_700_000_000_000 + i * 1000]));
    disk.set('f/sub/near-t1.txt', [edited(TEXTS[1]!, 7), 1_700_000_100_000]);
    disk.set('f/copy-t2.txt', [TEXTS[2]!, 1_700_000_200_000]);
    const bundle = await cliBundle(disk);

    // A corpus saved before: another folder.
    let t = await tab();
    await t.session.start({ kind: 'file-list', files: [fileOf('g/a.txt', TEXTS[0]!, 1), fileOf('g/b.txt', edited(TEXTS[0]!, 3), 2)], sync: true });
    await settled(t);
    const saved = exportsOf(t.store.getSnapshot().result);

    const wrong = await open(t, bundle, [fileOf('other/x.txt', TEXTS[3]!, 5)]);
    expect(wrong).toMatchObject({ kind: 'refused', message: expect.stringContaining('The folder "other" does not hold this result\'s files') });
    const kept = await open(t, bundle, filesOf(disk, []), false);
    expect(kept).toEqual({ kind: 'kept' });
    expect(exportsOf(t.store.getSnapshot().result)).toBe(saved);

    const reads: string[] = [];
    expect(await open(t, bundle, filesOf(disk, reads), true)).toEqual({ kind: 'opened' });
    expect(reads).toEqual([]);
    // The bundle carries no passages: contained documents off rather than every file read to sample them.
    expect(t.store.getSnapshot().containmentThreshold).toBe(0);
    expect(t.persistence.getSnapshot().notice).toBe(`${disk.size} files unchanged (same size and modification time: not read).`);
    const expected = await freshExportsOf(filesOf(disk, []));
    expect(exportsOf(t.store.getSnapshot().result)).toBe(expected);
    expect(t.persistence.getSnapshot().documentCount).toBe(disk.size);

    t.persistence.close();
    closeCorpusDb();
    t = await tab();
    expect(exportsOf(t.store.getSnapshot().result)).toBe(expected);

    // Edited since the CLI's scan (same size would not be seen; a new time is): read, named, and true.
    disk.set('f/t3.txt', [edited(TEXTS[3]!, 11), 1_800_000_000_000]);
    const again: string[] = [];
    expect(await open(t, bundle, filesOf(disk, again), true)).toEqual({ kind: 'opened' });
    // Fingerprinted: the edited file alone; an unchanged file is read only for the exact Jaccard of a candidate pair with it.
    expect(again[0]).toBe('f/t3.txt');
    expect(again.length).toBeLessThanOrEqual(2);
    expect(t.persistence.getSnapshot().notice).toBe(`${disk.size - 1} files unchanged (same size and modification time: not read); 1 changed: f/t3.txt.`);
    expect(exportsOf(t.store.getSnapshot().result)).toBe(await freshExportsOf(filesOf(disk, [])));
  });

  it('stores the corpus and the folders\' handles and roots in one transaction: a failure in the roots leaves all as it was', async () => {
    const disk: Disk = new Map();
    TEXTS.slice(0, 3).forEach((text, i) => disk.set(`f/t${i}.txt`, [text, 1_700_000_000_000 + i * 1000]));
    const bundle = await cliBundle(disk);
    const t = await tab();
    await settled(t);
    await putFolderHandles([{ kind: 'directory', name: 'old' } as FileSystemDirectoryHandle]);
    await setFolderRoots({ old: '/somewhere/old' });
    const realPut = IDBObjectStore.prototype.put;
    // Injected: the roots' record cannot be written (the corpus's records are issued before it).
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      if (this.name === 'settings' && (value as { key?: unknown }).key === 'folder-roots') throw new DOMException('injected', 'UnknownError');
      return realPut.call(this, value, key);
    };
    try {
      expect(await open(t, bundle, filesOf(disk, []))).toMatchObject({ kind: 'refused' });
    } finally {
      IDBObjectStore.prototype.put = realPut;
    }
    expect((await getCorpusSummary()).documentCount).toBe(0);
    expect(await getFolderRoots()).toEqual({ old: '/somewhere/old' });
    expect(await getFolderHandle('old')).not.toBeNull();
  });
});
