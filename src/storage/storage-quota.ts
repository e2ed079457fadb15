/**
 * Storage usage and persistence: how much the origin uses of its quota, and asking the browser not to
 * evict the corpus under storage pressure. The StorageManager is injected for tests.
 */

/** The part of navigator.storage used here. */
export interface StorageManagerLike {
  estimate?(): Promise<{ usage?: number; quota?: number; usageDetails?: Record<string, number> }>;
  persist?(): Promise<boolean>;
  persisted?(): Promise<boolean>;
}

/** Usage and quota in bytes; `persisted` is null when the browser cannot tell. */
export interface StorageUsage {
  usage: number;
  quota: number;
  /** usage / quota, 0 when the quota is unknown. */
  fraction: number;
  /**
   * Of `usage`, what the saved corpus takes (IndexedDB) and what the app's offline copy takes (the
   * service worker's caches and registration); null where the browser gives no breakdown (Chromium does).
   * The total alone never drops to nothing after Clear corpus: the offline copy stays.
   */
  corpus: number | null;
  app: number | null;
  persisted: boolean | null;
}

/** navigator.storage when the browser has it, else null. */
export function defaultStorageManager(): StorageManagerLike | null {
  const nav = (globalThis as { navigator?: { storage?: StorageManagerLike } }).navigator;
  return nav?.storage ?? null;
}

/** The origin's usage and quota, or null when the browser has no storage estimate. */
export async function getStorageUsage(
  storage: StorageManagerLike | null = defaultStorageManager(),
): Promise<StorageUsage | null> {
  if (!storage?.estimate) return null;
  const [estimate, persisted] = await Promise.all([
    storage.estimate(),
    storage.persisted ? storage.persisted().catch(() => null) : Promise.resolve(null),
  ]);
  const usage = estimate.usage ?? 0;
  const quota = estimate.quota ?? 0;
  const details = estimate.usageDetails;
  const corpus = details ? (details.indexedDB ?? 0) : null;
  const app = details ? (details.caches ?? 0) + (details.serviceWorkerRegistrations ?? 0) : null;
  return { usage, quota, fraction: quota > 0 ? usage / quota : 0, persisted, corpus, app };
}

/**
 * Asks the browser to keep the corpus under storage pressure. Resolves true when granted (or already
 * granted), false when refused, null when the browser has no such request.
 */
export async function requestPersistentStorage(
  storage: StorageManagerLike | null = defaultStorageManager(),
): Promise<boolean | null> {
  if (!storage?.persist) return null;
  if (storage.persisted && (await storage.persisted())) return true;
  return storage.persist();
}
