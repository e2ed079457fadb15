import { beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../src/core/simhash/settings.ts';
import type { IngestBatchResult, IngestItem } from '../../../src/workers/ingest-protocol.ts';
import { goldenSources } from '../../fixtures/real-text/golden-files.ts';

type Api = (typeof import('../../../src/workers/ingest-api.ts'))['ingestApi'];

/** A fresh copy of the worker module: what a newly started worker runs. */
async function freshWorker(): Promise<Api> {
  vi.resetModules();
  return (await import('../../../src/workers/ingest-api.ts')).ingestApi;
}

/** Items whose bytes are views of one buffer, as the page's feeder sends them (batch-feeder.ts). */
function itemsInOneBuffer(files: { path: string; bytes: Uint8Array }[]): IngestItem[] {
  const total = files.reduce((n, f) => n + f.bytes.byteLength, 0);
  const buffer = new ArrayBuffer(total + 16);
  let at = 0;
  return files.map((f) => {
    const bytes = new Uint8Array(buffer, at, f.bytes.byteLength);
    bytes.set(f.bytes);
    at += f.bytes.byteLength;
    return { name: f.path, bytes };
  });
}

/** Everything a batch result says, as plain values (typed arrays as arrays, the Blob as its bytes). */
async function plain(r: IngestBatchResult) {
  const { contents, input, ...rest } = r;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) {
    if (ArrayBuffer.isView(value)) out[key] = Array.from(value as Uint32Array);
    else if (value && typeof value === 'object' && !Array.isArray(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, ArrayBuffer.isView(v) ? Array.from(v as Uint32Array) : v]));
    } else out[key] = value;
  }
  out.contents = contents ? { offsets: Array.from(contents.offsets), bytes: Array.from(new Uint8Array(await contents.blob.arrayBuffer())) } : null;
  out.input = input ? input.byteLength : null;
  return out;
}

let sources: { path: string; bytes: Uint8Array }[];
beforeAll(() => {
  // Distinct real texts: a text seen in the first batch would be a cached print in the second.
  const seen = new Set<string>();
  sources = goldenSources().filter((s) => !seen.has(s.text) && seen.add(s.text) !== undefined);
}, 60_000);

describe('ingest worker arena', () => {
  it("gives a second batch after a larger first one the same bytes as a fresh worker's batch", async () => {
    expect(sources.length).toBeGreaterThan(60);
    const large = sources.slice(0, sources.length - 20);
    const small = sources.slice(sources.length - 20);
    const options = { keepSets: true, keepBytes: true, passages: true, returnInput: true };
    const used = await freshWorker();
    await used.ingestBatch(itemsInOneBuffer(large), DEFAULT_SETTINGS, options);
    const second = await plain(await used.ingestBatch(itemsInOneBuffer(small), DEFAULT_SETTINGS, options));
    const fresh = await plain(await (await freshWorker()).ingestBatch(itemsInOneBuffer(small), DEFAULT_SETTINGS, options));
    expect(second).toEqual(fresh);
    // The batch's kept sets are all there, and its input buffer comes back to be read into again.
    expect((fresh.kept as { docs: number[] }).docs.length).toBeGreaterThan(10);
    expect(fresh.input).toBe(small.reduce((n, f) => n + f.bytes.byteLength, 0) + 16);
  });

  it('returns the input buffer only when every item is a view of it', async () => {
    const api = await freshWorker();
    const [a, b] = sources;
    const r = await api.ingestBatch([{ name: a!.path, bytes: a!.bytes.slice() }, { name: b!.path, bytes: b!.bytes.slice() }], DEFAULT_SETTINGS, { returnInput: true });
    expect(r.input).toBeUndefined();
  });
});
