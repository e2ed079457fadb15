/**
 * Reading and changing the records the app saved, straight in its IndexedDB, as an older SimSift, a
 * failing disk or a test's probe would: one cursor walk over one store, run in the page.
 */
import type { Page } from '@playwright/test';

/** What a visit does with a record: `put` writes it back changed, `take` is returned, `stop` ends the walk. */
export type RecordVisit<R> = { put?: Record<string, unknown>; take?: R; stop?: boolean } | undefined;

/** How to walk: newest key first (`prev`), and whether records may be written (a read-only walk never waits on the app's writes). */
export interface WalkOptions {
  direction?: 'next' | 'prev';
  write?: boolean;
}

/**
 * Walks `store` of the app's database (simsift-corpus) with a cursor, calling `visit` with each record
 * and `arg`, and returns what the visits took, in walk order. `visit` runs in the page, so it must be
 * self-contained (it sees `arg`, nothing of the test's scope): its source is sent with the walk, as a
 * string, because page.evaluate takes no function argument and the app's CSP allows no eval in the page.
 */
export function walkSavedRecords<A, R>(page: Page, store: string, visit: (record: Record<string, unknown>, arg: A) => RecordVisit<R>, arg: A, options: WalkOptions = {}): Promise<R[]> {
  return page.evaluate(`(${walk.toString()})(${JSON.stringify(store)}, ${visit.toString()}, ${JSON.stringify(arg) ?? 'undefined'}, ${JSON.stringify(options)})`) as Promise<R[]>;
}

/** The walk, run in the page (self-contained: it is sent as its source). */
function walk(store: string, visit: (record: Record<string, unknown>, arg: unknown) => RecordVisit<unknown>, arg: unknown, options: WalkOptions): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open('simsift-corpus');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const tx = db.transaction(store, options.write ? 'readwrite' : 'readonly');
      const taken: unknown[] = [];
      const request = tx.objectStore(store).openCursor(null, options.direction ?? 'next');
      request.onsuccess = () => {
        const cursor = request.result;
        if (!cursor) return;
        const done = visit(cursor.value as Record<string, unknown>, arg);
        if (done?.put) cursor.update(done.put);
        if (done && 'take' in done) taken.push(done.take);
        if (!done?.stop) cursor.continue();
      };
      tx.oncomplete = () => (db.close(), resolve(taken));
      tx.onerror = () => (db.close(), reject(tx.error));
    };
  });
}
