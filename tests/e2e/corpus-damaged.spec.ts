import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { writeCorpusFolder } from '../fixtures/corpus-folder.ts';
import { PersistencePage, waitForSaved } from './persistence-page.ts';
import { walkSavedRecords } from './saved-records.ts';

/** The damage done to a saved record. */
type Damage = 'pair-id' | 'pair-jaccard' | 'session-counts';

/** Damages a record of the app's IndexedDB as a failing disk or a bug might: the saved pairs, or the newest scan session. */
async function damage(page: Page, kind: Damage): Promise<void> {
  const store = kind === 'session-counts' ? 'scan-sessions' : 'meta';
  const damaged = await walkSavedRecords(
    page,
    store,
    (record, kind) => {
      if (kind === 'session-counts') return { put: { ...record, state: 'storage-full', committed: 1_000_000 }, take: true, stop: true };
      if (record.key !== 'verified') return undefined;
      if (kind === 'pair-id') {
        const a = new Uint32Array((record.a as ArrayBuffer).slice(0));
        a[0] = 999_999;
        return { put: { ...record, a: a.buffer }, take: true, stop: true };
      }
      const j = new Float32Array((record.jaccard as ArrayBuffer).slice(0));
      j[0] = 0.123;
      return { put: { ...record, jaccard: j.buffer }, take: true, stop: true };
    },
    kind,
    { direction: 'prev', write: true },
  );
  if (damaged.length === 0) throw new Error(`nothing to damage in ${store}`);
}

/** Scans the small corpus folder into the saved corpus and waits until everything is written. */
async function savedCorpus(page: Page, app: PersistencePage, dir: string): Promise<void> {
  writeCorpusFolder(join(dir, 'corpus'));
  await page.goto('/');
  await app.chooseFolder(join(dir, 'corpus'));
  await app.waitForState('done');
  await waitForSaved(page);
}

/** After a reload: an alert says the saved corpus is damaged, and Reset local data starts again. */
async function alertAndReset(page: Page, app: PersistencePage): Promise<void> {
  await page.reload();
  const alert = app.panel.getByRole('alert');
  await expect(alert).toContainText('The saved corpus is damaged', { timeout: 30_000 });
  await expect(app.page.locator('[data-scan-state]')).not.toHaveAttribute('data-scan-state', 'done');
  await alert.getByRole('button', { name: 'Reset local data' }).click();
  await expect(app.savedDocuments).toHaveText('0 documents saved in this browser');
  await expect(app.panel.getByRole('alert')).toHaveCount(0);
}

test('saved pairs naming a document that is not stored give an alert and Reset, not fewer groups', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-damaged-ids-'));
  try {
    const app = new PersistencePage(page);
    await savedCorpus(page, app, dir);
    await damage(page, 'pair-id');
    await alertAndReset(page, app);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a saved Jaccard below the threshold it was accepted at gives an alert and Reset, never a made-up value', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-damaged-jaccard-'));
  try {
    const app = new PersistencePage(page);
    await savedCorpus(page, app, dir);
    await damage(page, 'pair-jaccard');
    await alertAndReset(page, app);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a damaged scan-session record gives an alert and Reset, never negative counts', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-damaged-session-'));
  try {
    const app = new PersistencePage(page);
    await savedCorpus(page, app, dir);
    await damage(page, 'session-counts');
    await alertAndReset(page, app);
    await expect(page.getByText(/-[\d,]+ files? not saved/)).toHaveCount(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an upgrade of an older saved corpus that fails gives an alert and Reset, not "nothing was saved"', async ({ page }) => {
  const app = new PersistencePage(page);
  // Made on a page of the same origin without the app, whose own connection would reopen the current
  // version between the delete and the open.
  await page.goto('/sample/manifest.json');
  // A version-2 database (per-document contents) whose contents record is damaged: the upgrade to the
  // current version must convert it, fails, and leaves the database as it was.
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const del = indexedDB.deleteDatabase('simsift-corpus');
        del.onerror = () => reject(del.error);
        del.onsuccess = () => {
          const open = indexedDB.open('simsift-corpus', 2);
          open.onupgradeneeded = () => {
            const db = open.result;
            db.createObjectStore('corpus-chunks', { keyPath: 'chunk' });
            db.createObjectStore('contents', { keyPath: 'id' }).put({ id: 5, blob: 'not a blob' });
            db.createObjectStore('shards', { keyPath: ['table', 'shard'] });
            db.createObjectStore('settings', { keyPath: 'key' });
            db.createObjectStore('meta', { keyPath: 'key' }).put({ key: 'corpus', nextId: 6, documentCount: 1, revision: 1 });
            db.createObjectStore('scan-sessions', { keyPath: 'id', autoIncrement: true });
          };
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            open.result.close();
            resolve();
          };
        };
      }),
  );
  await page.goto('/');
  const alert = app.panel.getByRole('alert');
  await expect(alert).toContainText('could not be converted for this version; it was left as it was', { timeout: 30_000 });
  await expect(alert).not.toContainText('nothing from this step was saved');
  await alert.getByRole('button', { name: 'Reset local data' }).click();
  await expect(app.savedDocuments).toHaveText('0 documents saved in this browser');
  await expect(app.panel.getByRole('alert')).toHaveCount(0);
});
