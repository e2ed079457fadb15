// Gives each test a fresh in-memory IndexedDB (fake-indexeddb) and points the storage module at it.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach } from 'vitest';
import { closeCorpusDb, configureStorage } from '../../../src/storage/database.ts';

export const TEST_DB = 'simsift-test';

/** Installs a fresh IDBFactory before each test of the calling file and closes the connection after. */
export function useFreshDatabase(): void {
  beforeEach(() => {
    globalThis.indexedDB = new IDBFactory();
    configureStorage({ name: TEST_DB, events: {} });
  });
  afterEach(() => {
    closeCorpusDb();
  });
}
