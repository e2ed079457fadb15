import { describe, expect, it } from 'vitest';
import { getStorageUsage, requestPersistentStorage } from '../../../src/storage/storage-quota.ts';
import type { StorageManagerLike } from '../../../src/storage/storage-quota.ts';

function manager(state: { usage?: number; quota?: number; persisted: boolean; grant: boolean }): StorageManagerLike & {
  persistCalls: number;
} {
  const m = {
    persistCalls: 0,
    estimate: async () => ({ usage: state.usage, quota: state.quota }),
    persisted: async () => state.persisted,
    persist: async () => {
      m.persistCalls++;
      state.persisted = state.grant;
      return state.grant;
    },
  };
  return m;
}

describe('storage usage', () => {
  it('reports usage, quota, fraction and persistence', async () => {
    expect(await getStorageUsage(manager({ usage: 250, quota: 1000, persisted: false, grant: false }))).toEqual({
      usage: 250,
      quota: 1000,
      fraction: 0.25,
      persisted: false,
      corpus: null,
      app: null,
    });
    expect(await getStorageUsage(manager({ persisted: true, grant: true }))).toEqual({
      usage: 0,
      quota: 0,
      fraction: 0,
      persisted: true,
      corpus: null,
      app: null,
    });
  });

  it('splits the usage into the corpus and the offline copy where the browser gives a breakdown', async () => {
    const details = { indexedDB: 70_000, caches: 6_300_000, serviceWorkerRegistrations: 20_000 };
    const m: StorageManagerLike = { estimate: async () => ({ usage: 6_390_000, quota: 10_000_000_000, usageDetails: details }) };
    expect(await getStorageUsage(m)).toMatchObject({ usage: 6_390_000, corpus: 70_000, app: 6_320_000 });
    // A breakdown without IndexedDB: the corpus takes nothing yet.
    const empty: StorageManagerLike = { estimate: async () => ({ usage: 10, quota: 100, usageDetails: { caches: 10 } }) };
    expect(await getStorageUsage(empty)).toMatchObject({ corpus: 0, app: 10 });
  });

  it('returns null without a StorageManager', async () => {
    expect(await getStorageUsage(null)).toBeNull();
    expect(await getStorageUsage({})).toBeNull();
    expect(await requestPersistentStorage(null)).toBeNull();
  });

  it('asks for persistence once, and not when already granted', async () => {
    const refused = manager({ persisted: false, grant: false });
    expect(await requestPersistentStorage(refused)).toBe(false);
    expect(refused.persistCalls).toBe(1);
    const granted = manager({ persisted: false, grant: true });
    expect(await requestPersistentStorage(granted)).toBe(true);
    expect(await requestPersistentStorage(granted)).toBe(true);
    expect(granted.persistCalls).toBe(1);
  });
});
