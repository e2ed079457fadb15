import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { writeCorpusFolder } from '../fixtures/corpus-folder.ts';
import { PersistencePage, waitForSaved } from './persistence-page.ts';

/** The damage done to a saved record (the page's CSP allows no eval: each kind is written out). */
type Damage = 'pair-id' | 'pair-jaccard' | 'session-counts';

/** Damages a record of the app's IndexedDB as a failing disk or a bug might. */
async function damage(page: Page, kind: Damage): Promise<void> {
  await page.evaluate(
    (kind) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('simsift-corpus');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const store = kind === 'session-counts' ? 'scan-sessions' : 'meta';
          const tx = db.transaction(store, 'readwrite');
          const os = tx.objectStore(store);
          const read = kind === 'session-counts' ? os.openCursor(null, 'prev') : os.get('verified');
          read.onsuccess = () => {
            const result = read.result as IDBCursorWithValue | Record<string, unknown> | null;
            if (!result) return reject(new Error(`nothing to damage in ${store}`));
            const record = ('value' in result ? result.value : result) as Record<string, unknown>;
            if (kind === 'pair-id') {
              const a = new Uint32Array((record.a as ArrayBuffer).slice(0));
              a[0] = 999_999;
              record.a = a.buffer;
            } else if (kind === 'pair-jaccard') {
              const j = new Float32Array((record.jaccard as ArrayBuffer).slice(0));
              j[0] = 0.123;
              record.jaccard = j.buffer;
            } else {
              record.state = 'storage-full';
              record.committed = 1_000_000;
            }
            os.put(record);
          };
          tx.oncomplete = () => {
            db.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    kind,
  );
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
