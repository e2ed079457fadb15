/**
 * Coordination between tabs: one writer at a time (Web Locks, with an in-tab fallback) and a
 * BroadcastChannel telling other tabs that the saved corpus changed. Browser APIs are injected.
 */

/** The Web Locks name every SimSift tab takes before writing the corpus. */
export const WRITER_LOCK_NAME = 'simsift-corpus-writer';

/** The BroadcastChannel name for corpus change notices. */
export const CORPUS_CHANNEL_NAME = 'simsift-corpus';

/** The part of the Web Locks API used here (navigator.locks). */
export interface LockManagerLike {
  request<T>(
    name: string,
    options: { mode?: 'exclusive' | 'shared'; ifAvailable?: boolean; signal?: AbortSignal },
    callback: (lock: unknown) => Promise<T> | T,
  ): Promise<T>;
}

/** The result of trying to write: the task's value, or `acquired: false` when another tab writes. */
export type WriterLockOutcome<T> = { acquired: true; value: T } | { acquired: false };

let fallbackTail: Promise<unknown> = Promise.resolve();
let fallbackHeld = false;

/** navigator.locks when the browser has it, else null. */
export function defaultLockManager(): LockManagerLike | null {
  const nav = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator;
  return nav?.locks ?? null;
}

/**
 * Runs `task` holding the corpus writer lock, so two tabs never write at once. With `wait: false`
 * it returns `{ acquired: false }` at once when another tab holds the lock. Without Web Locks it
 * serializes writers within this tab only (older browsers; other tabs are then not excluded).
 */
export async function withWriterLock<T>(
  task: () => Promise<T>,
  options: { wait?: boolean; signal?: AbortSignal; locks?: LockManagerLike | null } = {},
): Promise<WriterLockOutcome<T>> {
  const locks = options.locks === undefined ? defaultLockManager() : options.locks;
  const wait = options.wait ?? true;
  if (locks) {
    const request: { mode: 'exclusive'; ifAvailable?: boolean; signal?: AbortSignal } = { mode: 'exclusive' };
    if (!wait) request.ifAvailable = true;
    if (options.signal) request.signal = options.signal;
    return locks.request(WRITER_LOCK_NAME, request, async (lock): Promise<WriterLockOutcome<T>> => {
      if (lock === null) return { acquired: false };
      return { acquired: true, value: await task() };
    });
  }
  if (!wait && fallbackHeld) return { acquired: false };
  const signal = options.signal;
  signal?.throwIfAborted();
  // The signal counts while queued too (as with Web Locks): a writer that waits with a timeout must
  // not wait forever behind a long one.
  let abandoned = false;
  let rejectWaiting: ((reason: unknown) => void) | null = null;
  const onAbort = () => {
    abandoned = true;
    rejectWaiting?.(signal!.reason);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  const turn = fallbackTail.then(async (): Promise<WriterLockOutcome<T> | null> => {
    signal?.removeEventListener('abort', onAbort);
    if (abandoned) return null;
    fallbackHeld = true;
    try {
      return { acquired: true, value: await task() };
    } finally {
      fallbackHeld = false;
    }
  });
  fallbackTail = turn.catch(() => undefined);
  return new Promise<WriterLockOutcome<T>>((resolve, reject) => {
    rejectWaiting = reject;
    turn.then((outcome) => outcome && resolve(outcome), reject);
  });
}

/** Why the corpus changed. */
export type CorpusChangeReason = 'added' | 'removed' | 'cleared' | 'settings' | 'reset';

/** The message other tabs receive. */
export interface CorpusChange {
  type: 'corpus-changed';
  reason: CorpusChangeReason;
  /** The corpus revision after the change (from addBatch/removeDocuments/clearCorpus). */
  revision: number;
  /** The sending tab's id. */
  source: string;
}

/** The part of BroadcastChannel used here. */
export interface ChannelLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  close(): void;
}

/** A tab's end of the corpus change channel. */
export interface CorpusChannel {
  /** False when the browser has no BroadcastChannel: other tabs then only see changes on reload. */
  readonly available: boolean;
  readonly tabId: string;
  /** Tells the other tabs that this tab changed the corpus. */
  notify(reason: CorpusChangeReason, revision: number): void;
  /** Calls `listener` for every change made by another tab; returns the unsubscribe function. */
  subscribe(listener: (change: CorpusChange) => void): () => void;
  close(): void;
}

/**
 * Opens the corpus change channel. `factory` defaults to `new BroadcastChannel(name)`; pass null to
 * get an unavailable channel (notify does nothing).
 */
export function createCorpusChannel(
  options: { factory?: ((name: string) => ChannelLike) | null; tabId?: string } = {},
): CorpusChannel {
  const factory =
    options.factory === undefined
      ? typeof BroadcastChannel === 'function'
        ? (name: string) => new BroadcastChannel(name) as ChannelLike
        : null
      : options.factory;
  const tabId = options.tabId ?? randomTabId();
  const channel = factory ? factory(CORPUS_CHANNEL_NAME) : null;
  const listeners = new Set<(change: CorpusChange) => void>();
  const onMessage = (event: MessageEvent): void => {
    const change = parseChange(event.data);
    if (!change || change.source === tabId) return;
    for (const listener of listeners) listener(change);
  };
  channel?.addEventListener('message', onMessage);
  return {
    available: channel !== null,
    tabId,
    notify(reason, revision) {
      const change: CorpusChange = { type: 'corpus-changed', reason, revision, source: tabId };
      channel?.postMessage(change);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      listeners.clear();
      channel?.removeEventListener('message', onMessage);
      channel?.close();
    },
  };
}

const REASONS: readonly string[] = ['added', 'removed', 'cleared', 'settings', 'reset'];

/** Accepts only well-formed change messages (the channel is shared by every tab of the origin). */
function parseChange(data: unknown): CorpusChange | null {
  if (!data || typeof data !== 'object') return null;
  const d = data as Partial<CorpusChange>;
  if (d.type !== 'corpus-changed' || !REASONS.includes(d.reason as string)) return null;
  if (!Number.isInteger(d.revision) || typeof d.source !== 'string') return null;
  return { type: d.type, reason: d.reason!, revision: d.revision!, source: d.source };
}

function randomTabId(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  return c?.randomUUID?.() ?? `tab-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}
