/**
 * The connection to the corpus database: one module-level promise, opened lazily, closed when another
 * tab needs to upgrade or delete, and reset so the next call reopens. Also "reset local data".
 */
import { deleteDB, openDB } from 'idb';
import type { IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import { DB_NAME, DB_VERSION, STORE_NAMES, migrate } from './schema.ts';
import type { CorpusDB } from './schema.ts';
import { StorageError, toStorageError } from './storage-error.ts';

/** Things the UI may want to tell the person about; every callback is optional. */
export interface StorageEvents {
  /** Another tab has the database open at an older version; opening/deleting waits for it. */
  onBlocked?(info: { currentVersion: number; requestedVersion: number | null }): void;
  /** This tab closed its connection because another tab upgrades or deletes the database. */
  onVersionChange?(info: { currentVersion: number; requestedVersion: number | null }): void;
  /** The browser closed the connection abnormally (storage cleared, disk error). */
  onTerminated?(): void;
}

let databaseName = DB_NAME;
let events: StorageEvents = {};
let dbPromise: Promise<IDBPDatabase<CorpusDB>> | null = null;

/**
 * Points the module at a database name and event callbacks; closes the current connection. Tests use
 * a fresh name (or a fresh global IDBFactory) per test.
 */
export function configureStorage(options: { name?: string; events?: StorageEvents }): void {
  closeCorpusDb();
  if (options.name !== undefined) databaseName = options.name;
  if (options.events !== undefined) events = options.events;
}

/**
 * Opens (and creates or upgrades) a corpus database. Throws a StorageError: 'newer-version' when the
 * stored version is above DB_VERSION, 'corrupt' when a store is missing, 'unavailable' without
 * IndexedDB.
 */
export async function openCorpusDb(
  name: string = databaseName,
  callbacks: StorageEvents = events,
  version: number = DB_VERSION,
): Promise<IDBPDatabase<CorpusDB>> {
  if (typeof indexedDB === 'undefined') throw new StorageError('unavailable', 'indexedDB is not defined');
  let db: IDBPDatabase<CorpusDB>;
  /** Set when an existing database is being converted: its failure is not "nothing was saved". */
  let converting = false;
  try {
    db = await openDB<CorpusDB>(name, version, {
      upgrade(database, oldVersion, newVersion, tx) {
        converting = oldVersion > 0;
        migrate(database, oldVersion, newVersion ?? version, tx);
      },
      blocked(currentVersion, blockedVersion) {
        callbacks.onBlocked?.({ currentVersion, requestedVersion: blockedVersion });
      },
      blocking(currentVersion, blockedVersion, event) {
        // Close at once so the other tab's upgrade or delete can go ahead; the next call reopens.
        (event.target as IDBDatabase).close();
        if (dbPromise && name === databaseName) dbPromise = null;
        callbacks.onVersionChange?.({ currentVersion, requestedVersion: blockedVersion });
      },
      terminated() {
        if (dbPromise && name === databaseName) dbPromise = null;
        callbacks.onTerminated?.();
      },
    });
  } catch (error) {
    const mapped = toStorageError(error);
    if (converting && mapped.kind !== 'quota') throw new StorageError('upgrade-failed', mapped.message, { cause: error });
    throw mapped;
  }
  const missing = STORE_NAMES.filter((store) => !db.objectStoreNames.contains(store));
  if (missing.length > 0) {
    db.close();
    throw new StorageError('corrupt', `missing stores: ${missing.join(', ')}`);
  }
  return db;
}

/** The shared connection, opened on first use. A failed open is not cached, so a retry reopens. */
export function getCorpusDb(): Promise<IDBPDatabase<CorpusDB>> {
  if (!dbPromise) {
    const opening = openCorpusDb();
    dbPromise = opening;
    opening.catch(() => {
      if (dbPromise === opening) dbPromise = null;
    });
  }
  return dbPromise;
}

/** Closes the shared connection (if open); the next repository call reopens it. */
export function closeCorpusDb(): void {
  const current = dbPromise;
  dbPromise = null;
  current?.then((db) => db.close()).catch(() => undefined);
}

/**
 * "Reset local data": closes this tab's connection and deletes the whole database. Other tabs close
 * theirs on `versionchange`; while one does not, `onBlocked` is called and the delete waits.
 */
export async function deleteCorpusDatabase(name: string = databaseName): Promise<void> {
  if (name === databaseName) {
    const current = dbPromise;
    dbPromise = null;
    if (current) await current.then((db) => db.close()).catch(() => undefined);
  }
  try {
    await deleteDB(name, {
      blocked(currentVersion, event) {
        events.onBlocked?.({ currentVersion, requestedVersion: event.newVersion });
      },
    });
  } catch (error) {
    throw toStorageError(error);
  }
}

type Tx<Mode extends IDBTransactionMode> = IDBPTransaction<CorpusDB, StoreNames<CorpusDB>[], Mode>;

/**
 * Runs `write` in one readwrite transaction and resolves when it has committed. `write` must only
 * queue IndexedDB requests (and await them): no other awaits, or the transaction would commit early.
 * Any failure aborts the whole transaction, so nothing of it is stored, and rejects with a StorageError.
 */
export async function writeTransaction<T>(
  stores: StoreNames<CorpusDB>[],
  write: (tx: Tx<'readwrite'>) => Promise<T>,
): Promise<T> {
  const db = await getCorpusDb();
  let tx: Tx<'readwrite'>;
  try {
    tx = db.transaction(stores, 'readwrite');
  } catch (error) {
    throw toStorageError(error);
  }
  const done = tx.done;
  // Observed here so an abort never surfaces as an unhandled rejection.
  done.catch(() => undefined);
  let result: T;
  try {
    result = await write(tx);
  } catch (error) {
    // A request that threw synchronously (e.g. DataCloneError, some engines' QuotaExceededError)
    // does not abort the transaction by itself: abort so the batch's earlier writes are undone.
    try {
      tx.abort();
    } catch {
      // Already aborted or finished.
    }
    await done.catch(() => undefined);
    throw toStorageError(error, tx.error);
  }
  try {
    await done;
  } catch (error) {
    throw toStorageError(error, tx.error);
  }
  return result;
}

/** Runs `read` in one readonly transaction; failures become StorageErrors. */
export async function readTransaction<T>(
  stores: StoreNames<CorpusDB>[],
  read: (tx: Tx<'readonly'>) => Promise<T>,
): Promise<T> {
  const db = await getCorpusDb();
  try {
    const tx = db.transaction(stores, 'readonly');
    tx.done.catch(() => undefined);
    return await read(tx);
  } catch (error) {
    throw toStorageError(error);
  }
}

/**
 * Collects a transaction's request promises. Each is observed at once, so when a later request throws
 * synchronously and the transaction aborts, the earlier ones' AbortErrors are not unhandled rejections.
 */
export class RequestGroup {
  private readonly pending: Promise<unknown>[] = [];

  /** Adds a request (or a sub-step's promise) and returns it. */
  add<T>(request: Promise<T>): Promise<T> {
    request.catch(() => undefined);
    this.pending.push(request);
    return request;
  }

  /** Resolves when every request has succeeded; rejects with the first failure. */
  async done(): Promise<void> {
    await Promise.all(this.pending);
  }
}
