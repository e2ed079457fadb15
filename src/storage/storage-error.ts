/**
 * The typed error every storage function throws, with a message the UI can show as is, and the
 * mapping from IndexedDB's DOMExceptions to it.
 */

/** What went wrong, so the UI can choose an action (free space, reload, reset local data). */
export type StorageErrorKind =
  /** The origin's quota is full; the failed batch was rolled back, earlier batches are kept. */
  | 'quota'
  /** The stored database was written by a newer SimSift; offer "reset local data" or a newer app. */
  | 'newer-version'
  /** Stored records are damaged or of an unknown shape; offer "reset local data". */
  | 'corrupt'
  /** Another tab holds an old connection open and keeps an upgrade or delete waiting. */
  | 'blocked'
  /** IndexedDB is missing or refused (private mode, disabled storage). */
  | 'unavailable'
  /** The connection was closed (another tab upgraded or deleted the database); reload. */
  | 'closed'
  /** The caller passed data the schema cannot hold (a programming error, not user data). */
  | 'invalid-input'
  /** Bringing a database saved by an older SimSift up to this version failed; it was left as it was. */
  | 'upgrade-failed'
  /** Any other failure; the transaction was rolled back. */
  | 'failed';

const MESSAGES: Record<StorageErrorKind, string> = {
  quota:
    'The browser has no more storage space for SimSift. The files saved before this batch are kept. ' +
    'Free some space (or remove documents) and resume the scan.',
  'newer-version':
    'The saved corpus was written by a newer version of SimSift and cannot be opened here. ' +
    'Use the newer version, or reset local data to start again.',
  corrupt: 'The saved corpus is damaged and cannot be read. Reset local data to start again.',
  blocked:
    'Another SimSift tab is keeping the saved corpus open. Close or reload the other tabs to continue.',
  unavailable:
    'This browser does not let SimSift save data (storage is disabled or in a private mode). ' +
    'Scanning still works, but nothing is kept after a reload.',
  closed: 'The saved corpus was changed by another tab. Reload this page to continue.',
  'invalid-input': 'SimSift tried to save data it cannot store (this is a bug).',
  'upgrade-failed':
    'The saved corpus, written by an older version of SimSift, could not be converted for this version; it was left as it was. ' +
    'Reset local data to start again.',
  failed: 'Saving to the browser storage failed; nothing from this step was saved.',
};

/** A storage failure with a kind the UI can act on and a message it can show. */
export class StorageError extends Error {
  override readonly name = 'StorageError';
  readonly kind: StorageErrorKind;

  constructor(kind: StorageErrorKind, detail?: string, options?: { cause?: unknown }) {
    super(detail ? `${MESSAGES[kind]} (${detail})` : MESSAGES[kind], options);
    this.kind = kind;
  }

  /** The message for a person, without the technical detail. */
  get userMessage(): string {
    return MESSAGES[this.kind];
  }
}

/** True when `error` is a StorageError (also across realms, by name and kind). */
export function isStorageError(error: unknown): error is StorageError {
  return (
    error instanceof StorageError ||
    (error instanceof Error && error.name === 'StorageError' && typeof (error as StorageError).kind === 'string')
  );
}

/**
 * Maps anything IndexedDB throws or rejects with to a StorageError. Quota failures arrive as a
 * QuotaExceededError thrown by a request, or as an AbortError whose transaction error is one.
 */
export function toStorageError(error: unknown, transactionError?: DOMException | null): StorageError {
  if (isStorageError(error)) return error;
  const name = errorName(transactionError) ?? errorName(error);
  const cause = transactionError ?? error;
  const detail = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
  switch (name) {
    case 'QuotaExceededError':
      return new StorageError('quota', detail, { cause });
    case 'VersionError':
      return new StorageError('newer-version', detail, { cause });
    case 'DataCloneError':
    case 'DataError':
      return new StorageError('invalid-input', detail, { cause });
    case 'InvalidStateError':
      return new StorageError('closed', detail, { cause });
    case 'SecurityError':
    case 'UnknownError':
      return new StorageError(name === 'SecurityError' ? 'unavailable' : 'failed', detail, { cause });
    default:
      return new StorageError('failed', detail, { cause });
  }
}

function errorName(error: unknown): string | undefined {
  if (error && typeof error === 'object' && 'name' in error && typeof error.name === 'string') {
    // An abort caused by a quota failure: some engines put the cause's name into the message only.
    if (error.name === 'AbortError' && 'message' in error && /quota/i.test(String(error.message))) {
      return 'QuotaExceededError';
    }
    return error.name;
  }
  return undefined;
}
