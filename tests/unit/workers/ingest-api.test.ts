import { describe, expect, it } from 'vitest';
import xxhash from 'xxhash-wasm';
import { ingestApi } from '../../../src/workers/ingest-api.ts';
import { createClaimBuffer } from '../../../src/workers/claimed-hashes.ts';
import { DocFlag, DocStatus } from '../../../src/core/documents/document-status.ts';
import { createFingerprinter } from '../../../src/core/simhash/fingerprinter.ts';
import { DEFAULT_SETTINGS } from '../../../src/core/simhash/settings.ts';
import { normalizeText } from '../../../src/core/text/normalize.ts';
import { decodeWindows1252 } from '../../../src/core/text/decode.ts';
import { hiOf, loOf } from '../../../src/core/simhash/fingerprint64.ts';
import { decodeFeatureSet } from '../../../src/core/groups/feature-set-codec.ts';

const PROSE =
  'The quick brown fox jumps over the lazy dog while the farmer watches from the old wooden fence, ' +
  'thinking about the harvest that will come when the autumn rains finally arrive in the valley.';

function file(content: BlobPart | BlobPart[], name = 'a.txt'): File {
  return new File(Array.isArray(content) ? content : [content], name);
}

/** Runs a batch of Files (the worker reads them), as the app does for large files. */
function batch(files: File[], ...rest: Parameters<typeof ingestApi.ingestBatch> extends [unknown, ...infer R] ? R : never) {
  return ingestApi.ingestBatch(
    files.map((f) => ({ name: f.name, file: f })),
    ...rest,
  );
}

async function contentHash(text: string, lossyBytes?: Uint8Array): Promise<[number, number]> {
  const xx = await xxhash();
  // A lossy decode's hash is seeded by the raw bytes' XXH64 (only byte-identical such files are exact copies).
  const h = lossyBytes ? xx.h64(normalizeText(text), xx.h64Raw(lossyBytes)) : xx.h64(normalizeText(text));
  return [hiOf(h), loOf(h)];
}

describe('ingestApi.ingestBatch', () => {
  it('fingerprints text exactly as the core does and hashes its normalized text with XXH64', async () => {
    const r = await batch([file(PROSE)], DEFAULT_SETTINGS);
    const expected = createFingerprinter(DEFAULT_SETTINGS).fingerprint(PROSE);
    expect(r.status[0]).toBe(DocStatus.ok);
    expect([r.hi[0], r.lo[0]]).toEqual([expected.hi, expected.lo]);
    expect(r.words[0]).toBe(expected.words);
    expect([r.hashHi[0], r.hashLo[0]]).toEqual(await contentHash(PROSE));
    expect(r.bytesRead).toBe(new TextEncoder().encode(PROSE).length);
    expect(r.skipped).toEqual([]);
  });

  it('skips empty, one-word and binary files with clear messages, and keeps going', async () => {
    const binary = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13, 1, 2, 3]);
    const r = await batch(
      [file('', 'empty.txt'), file('hello', 'one.txt'), file(binary, 'image.txt'), file(PROSE, 'b.txt')],
      DEFAULT_SETTINGS,
    );
    expect(Array.from(r.status)).toEqual([DocStatus.empty, DocStatus.tooShort, DocStatus.binary, DocStatus.ok]);
    expect(r.skipped.map((s) => [s.index, s.reason])).toEqual([
      [0, 'empty'],
      [1, 'too-short'],
      [2, 'binary'],
    ]);
    // A browser's 0-byte File may be a FIFO or a device: it is not called an empty file.
    expect(r.skipped[0].message).toMatch(/^0 bytes: an empty file, or a pipe or device/);
    expect(r.skipped[1].message).toMatch(/^Too short: 1 word is too few/);
    expect(r.skipped[2].message).toMatch(/^Not text: the file looks binary \(NUL byte at offset 4\)/);
  });

  it('reads UTF-16 (with BOM), Latin-1 and invalid UTF-8 as text', async () => {
    const utf16 = new Uint8Array(2 + PROSE.length * 2);
    utf16[0] = 0xff;
    utf16[1] = 0xfe;
    for (let i = 0; i < PROSE.length; i++) utf16[2 + 2 * i] = PROSE.charCodeAt(i);
    const latin1Text = `${PROSE} café naïve`;
    const latin1 = Uint8Array.from(latin1Text, (c) => c.charCodeAt(0));
    const invalid = new Uint8Array([...new TextEncoder().encode(PROSE), 0xc3, 0x28, 0xa0, 0xa1]);
    const r = await batch([file(utf16), file(latin1), file(invalid)], DEFAULT_SETTINGS);
    expect(Array.from(r.status)).toEqual([DocStatus.ok, DocStatus.ok, DocStatus.ok]);
    expect([r.hashHi[0], r.hashLo[0]]).toEqual(await contentHash(PROSE));
    expect([r.hashHi[1], r.hashLo[1]]).toEqual(await contentHash(latin1Text));
  });

  it('reads a UTF-8 file with three bad bytes as UTF-8 (U+FFFD for them), flags it and says so in a note', async () => {
    const clean = `${PROSE} Grüße aus Köln, café, naïve, déjà vu. `.repeat(5);
    const enc = new TextEncoder();
    const third = Math.floor(clean.length / 3);
    const parts = [clean.slice(0, third), clean.slice(third, 2 * third), clean.slice(2 * third)];
    const bad = new Uint8Array([...enc.encode(parts[0]), 0x80, ...enc.encode(parts[1]), 0xff, 0xfe, ...enc.encode(parts[2])]);
    const replaced = `${parts[0]}\uFFFD${parts[1]}\uFFFD\uFFFD${parts[2]}`;
    const r = await batch([file(bad), file(clean)], DEFAULT_SETTINGS);
    expect(Array.from(r.status)).toEqual([DocStatus.ok, DocStatus.ok]);
    expect([r.hashHi[0], r.hashLo[0]]).toEqual(await contentHash(replaced, bad));
    expect(r.flags[0] & DocFlag.invalidUtf8).toBe(DocFlag.invalidUtf8);
    expect(r.flags[1] & DocFlag.invalidUtf8).toBe(0);
    expect(r.notes).toEqual([{ index: 0, message: '3 invalid UTF-8 bytes replaced with � (U+FFFD); the rest was read as UTF-8.' }]);
    // Much nearer its clean twin than the windows-1252 mojibake it used to be read as.
    const bits = (x: number) => { let v = x >>> 0, c = 0; while (v) { v &= v - 1; c++; } return c; };
    const mojibake = createFingerprinter(DEFAULT_SETTINGS).fingerprint(decodeWindows1252(bad));
    const now = bits(r.hi[0] ^ r.hi[1]) + bits(r.lo[0] ^ r.lo[1]);
    const before = bits(mojibake.hi ^ r.hi[1]) + bits(mojibake.lo ^ r.lo[1]);
    expect(now).toBeLessThan(before);
    expect(now).toBeLessThanOrEqual(8);
    // Read by the worker (a large file sent as a File), the bytes are counted all the same.
    const limits = { maxBytes: 1e9, readAheadBytes: 100, readAhead: 4 };
    const streamed = await batch([file(bad)], DEFAULT_SETTINGS, { limits });
    expect([streamed.hashHi[0], streamed.hashLo[0]]).toEqual(await contentHash(replaced, bad));
    expect(streamed.notes).toEqual([{ index: 0, message: '3 invalid UTF-8 bytes replaced with � (U+FFFD); the rest was read as UTF-8.' }]);
  });

  it('strips markup, scripts and styles from .html files before fingerprinting', async () => {
    const html = `<!doctype html><html><head><style>body { color: red }</style><script>var secret = 1;</script></head>
      <body><p>${PROSE.replace('fox', 'fox</p><p>')}</p></body></html>`;
    const r = await batch([file(html, 'page.html'), file(html, 'page.txt')], DEFAULT_SETTINGS);
    const plain = createFingerprinter(DEFAULT_SETTINGS).fingerprint(PROSE);
    expect([r.hi[0], r.lo[0]]).toEqual([plain.hi, plain.lo]);
    expect(r.flags[0] & DocFlag.html).toBe(DocFlag.html);
    expect([r.hi[1], r.lo[1]]).not.toEqual([plain.hi, plain.lo]);
  });

  it('fingerprints identical texts once per worker and gives copies the same hash', async () => {
    const text = `${PROSE} A sentence only this test uses: ${Math.random()}`;
    const r = await batch([file(text), file(text.toUpperCase()), file(text)], DEFAULT_SETTINGS);
    expect(r.fingerprinted).toBe(1);
    expect(r.hashHi[0]).toBe(r.hashHi[1]);
    expect(r.hashLo[2]).toBe(r.hashLo[0]);
    expect(r.hi[2]).toBe(r.hi[0]);
  });

  it('with a shared claim set, fingerprints a text once across batches and marks the rest as copies', async () => {
    const claims = createClaimBuffer(10);
    const text = `${PROSE} Only in the claims test: ${Math.random()}`;
    const first = await batch([file(text), file(text)], DEFAULT_SETTINGS, { claims });
    const second = await batch([file(text.toLowerCase())], DEFAULT_SETTINGS, { claims });
    expect(Array.from(first.status)).toEqual([DocStatus.ok, DocStatus.copy]);
    expect(Array.from(second.status)).toEqual([DocStatus.copy]);
    expect(first.fingerprinted + second.fingerprinted).toBe(1);
    expect([second.hashHi[0], second.hashLo[0]]).toEqual([first.hashHi[0], first.hashLo[0]]);
  });

  it('reads ahead but returns results in file order, with empty files in between', async () => {
    const texts = Array.from({ length: 40 }, (_, i) => (i % 7 === 3 ? '' : `${PROSE} number ${i} ${'x'.repeat(i * 97)}`));
    const r = await batch(texts.map((t, i) => file(t, `${i}.txt`)), DEFAULT_SETTINGS);
    const fp = createFingerprinter(DEFAULT_SETTINGS);
    texts.forEach((t, i) => {
      if (t === '') expect(r.status[i]).toBe(DocStatus.empty);
      else expect([r.hi[i], r.lo[i]]).toEqual([fp.fingerprint(t).hi, fp.fingerprint(t).lo]);
    });
  });

  it('takes bytes read by the main thread as well as Files, with the same results', async () => {
    const bytes = new TextEncoder().encode(PROSE);
    const fromBytes = await ingestApi.ingestBatch([{ name: 'a.txt', bytes }, { name: 'e.txt', bytes: new Uint8Array(0) }], DEFAULT_SETTINGS);
    const fromFile = await batch([file(PROSE)], DEFAULT_SETTINGS);
    expect(Array.from(fromBytes.status)).toEqual([DocStatus.ok, DocStatus.empty]);
    expect([fromBytes.hi[0], fromBytes.lo[0], fromBytes.hashLo[0]]).toEqual([fromFile.hi[0], fromFile.lo[0], fromFile.hashLo[0]]);
    expect(Array.from(fromBytes.sizes)).toEqual([bytes.length, 0]);
  });

  it('with keepBytes returns the batch\'s bytes as one Blob with each item\'s range (Files read here too, while the budget lasts)', async () => {
    const bytes = new TextEncoder().encode(PROSE);
    const r = await ingestApi.ingestBatch(
      [{ name: 'dir/sub/a.txt', bytes }, { name: 'f.txt', file: file(PROSE, 'f.txt') }, { name: 'e.txt', bytes: new Uint8Array(0) }, { name: 'b.txt', bytes: bytes.slice(0, 40) }],
      DEFAULT_SETTINGS,
      { keepBytes: true },
    );
    const { blob, offsets } = r.contents!;
    const n = bytes.length;
    expect(Array.from(offsets)).toEqual([0, n, 2 * n, 2 * n, 2 * n + 40]);
    expect(new Uint8Array(await blob.slice(offsets[0], offsets[1]).arrayBuffer())).toEqual(bytes);
    expect(new Uint8Array(await blob.slice(offsets[1], offsets[2]).arrayBuffer())).toEqual(bytes);
    expect(new Uint8Array(await blob.slice(offsets[3], offsets[4]).arrayBuffer())).toEqual(bytes.slice(0, 40));
    expect(blob.size).toBe(2 * n + 40);
    const without = await ingestApi.ingestBatch([{ name: 'a.txt', bytes: new TextEncoder().encode(PROSE) }], DEFAULT_SETTINGS);
    expect(without.contents).toBeUndefined();
    // Past the budget a File's bytes are left out (an empty range: the corpus writer keeps the File itself).
    const limits = { maxBytes: 1e9, readAheadBytes: 1e6, readAhead: 4, keepBytesBudget: n + 10 };
    const capped = await ingestApi.ingestBatch([{ name: 'f.txt', file: file(PROSE, 'f.txt') }, { name: 'g.txt', file: file(PROSE, 'g.txt') }], DEFAULT_SETTINGS, { keepBytes: true, limits });
    // (Which of the two fits depends on which read finishes first; exactly one does.)
    expect(capped.contents!.offsets[2]).toBe(n);
    expect(capped.contents!.blob.size).toBe(n);
    expect(Array.from(capped.status)).toEqual([DocStatus.ok, DocStatus.ok]);
  });

  it('reports a file that cannot be read as unreadable, not as an error of the batch', async () => {
    class VanishedFile extends File {
      override arrayBuffer(): Promise<ArrayBuffer> {
        return Promise.reject(new DOMException('A requested file could not be found', 'NotFoundError'));
      }
    }
    const r = await batch([new VanishedFile(['x'.repeat(50)], 'gone.txt'), file(PROSE)], DEFAULT_SETTINGS);
    expect(Array.from(r.status)).toEqual([DocStatus.unreadable, DocStatus.ok]);
    expect(r.skipped[0].message).toBe('Could not be read (file not found): it may have been moved, deleted or locked while scanning.');
  });

  it('compares a large file whole: two files that differ only near their end are not identical; above the limit it is skipped, never cut', async () => {
    const words = Array.from({ length: 4000 }, (_, i) => `Wörd${i % 997}`).join(' \n');
    const lateEdit = `${words.slice(0, -40)} changed at the very end of the file`;
    const limits = { maxBytes: 60_000, readAheadBytes: 1000, readAhead: 4 };
    const r = await batch([file(words, 'a.txt'), file(lateEdit, 'b.txt'), file(`${words} ${words}`, 'c.txt')], DEFAULT_SETTINGS, { limits });
    expect(Array.from(r.status)).toEqual([DocStatus.ok, DocStatus.ok, DocStatus.tooLarge]);
    expect([r.hashHi[0], r.hashLo[0]]).not.toEqual([r.hashHi[1], r.hashLo[1]]);
    expect([r.hi[0], r.lo[0]]).not.toEqual([r.hi[1], r.lo[1]]);
    expect(r.skipped).toEqual([{ index: 2, reason: 'too-large', message: expect.stringMatching(/^Too large \(0\.1 MB\): SimSift compares files up to 64 MB whole/) }]);
    // The same bytes read at once (no limits) give the same fingerprint.
    const whole = await batch([file(words, 'a.txt')], DEFAULT_SETTINGS);
    expect([whole.hi[0], whole.lo[0]]).toEqual([r.hi[0], r.lo[0]]);
  });

  it('strips markup from a large HTML file as from a small one', async () => {
    const body = Array.from({ length: 3000 }, (_, i) => `<p class="x">word${i % 500} text</p>`).join('\n');
    const limits = { maxBytes: 1e9, readAheadBytes: 1000, readAhead: 4 };
    const big = await batch([file(`<html><body>${body}</body></html>`, 'page.html')], DEFAULT_SETTINGS, { limits });
    const plain = await batch([file(body.replace(/<[^>]+>/g, ' '), 'page.txt')], DEFAULT_SETTINGS);
    expect(big.flags[0] & DocFlag.html).toBe(DocFlag.html);
    expect([big.hi[0], big.lo[0]]).toEqual([plain.hi[0], plain.lo[0]]);
  });
});

describe('ingestApi: feature sets for verification', () => {
  const long = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');

  it('returns the feature sets of small documents only, with the batch', async () => {
    const r = await batch([file(PROSE, 'short.txt'), file(long, 'long.txt')], DEFAULT_SETTINGS);
    expect(Array.from(r.sets.docs)).toEqual([0]);
    const want = createFingerprinter(DEFAULT_SETTINGS).featureSet(PROSE);
    expect(Array.from(r.sets.keys.subarray(r.sets.offsets[0], r.sets.offsets[1]))).toEqual(Array.from(want));
  });

  it('verifyPairs re-reads the files and measures exact Jaccard; unreadable or binary files measure 0', async () => {
    const edited = long.replace('word150', 'changed');
    const items = [file(long), file(edited), file(new Uint8Array([0, 1, 2, 0, 0, 3]))].map((f) => ({ name: f.name, file: f }));
    const fp = createFingerprinter(DEFAULT_SETTINGS);
    const a = fp.featureSet(long);
    const b = fp.featureSet(edited);
    const common = a.filter((x) => b.includes(x)).length;
    const j = await ingestApi.verifyPairs(items, { a: Uint32Array.from([0, 0]), b: Uint32Array.from([1, 2]), count: 2 }, DEFAULT_SETTINGS);
    expect(j[0]).toBeCloseTo(common / (a.length + b.length - common), 12);
    expect(j[0]).toBeLessThan(1);
    expect(j[1]).toBe(0);
  });

  it('with keepSets returns the feature set of every fingerprinted document, encoded and exact', async () => {
    const claims = createClaimBuffer(8);
    const texts = [PROSE, long, 'one', long];
    const r = await batch(texts.map((t, i) => file(t, `f${i}.txt`)), DEFAULT_SETTINGS, { keepSets: true, claims });
    // 'one' is too short (no set), the second `long` is a copy (measured through its original).
    expect(Array.from(r.kept!.docs)).toEqual([0, 1]);
    const fp = createFingerprinter(DEFAULT_SETTINGS);
    r.kept!.docs.forEach((d, i) => {
      const set = decodeFeatureSet(r.kept!.words.subarray(r.kept!.offsets[i], r.kept!.offsets[i + 1]));
      expect(Array.from(set)).toEqual(Array.from(fp.featureSet(texts[d])));
    });
    expect((await batch([file(long)], DEFAULT_SETTINGS)).kept).toBeUndefined();
  });

  it('verifyPairs measures from kept sets exactly what it measures by reading the files', async () => {
    const edited = long.replace('word150', 'changed').replace('word7', 'other');
    const texts = [long, edited, PROSE];
    const pairs = { a: Uint32Array.from([0, 0, 1]), b: Uint32Array.from([1, 2, 2]), count: 3 };
    const read = await ingestApi.verifyPairs(texts.map((t, i) => ({ name: `f${i}.txt`, file: file(t) })), pairs, DEFAULT_SETTINGS);
    const kept = (await batch(texts.map((t, i) => file(t, `f${i}.txt`)), DEFAULT_SETTINGS, { keepSets: true, claims: createClaimBuffer(4) })).kept!;
    // Items 0 and 2 come as kept sets (no bytes, no file), item 1 is read.
    const mixed = await ingestApi.verifyPairs(
      [{ name: 'f0.txt' }, { name: 'f1.txt', file: file(edited) }, { name: 'f2.txt' }],
      pairs,
      DEFAULT_SETTINGS,
      undefined,
      {
        docs: Uint32Array.from([0, 2]),
        offsets: Uint32Array.from([0, kept.offsets[1], kept.offsets[1] + kept.offsets[3] - kept.offsets[2]]),
        words: Uint32Array.from([...kept.words.subarray(kept.offsets[0], kept.offsets[1]), ...kept.words.subarray(kept.offsets[2], kept.offsets[3])]),
      },
    );
    expect(Array.from(mixed)).toEqual(Array.from(read));
    expect(read[0]).toBeGreaterThan(0.9);
  });

  it('refuses TF-IDF fingerprints until the document frequencies are set', async () => {
    const tfidf = { ...DEFAULT_SETTINGS, weights: 'tfidf' as const };
    // Nothing in this file sets frequencies before this test (each test file has its own modules).
    const fresh = { ingestApi };
    await expect(fresh.ingestApi.ingestBatch([{ name: 'a.txt', file: file(long) }], tfidf)).rejects.toThrow(/document frequencies/);
    await fresh.ingestApi.countFrequencies([{ name: 'a.txt', file: file(long) }], tfidf);
    const df = fresh.ingestApi.collectFrequencies();
    expect(df.documents).toBe(1);
    fresh.ingestApi.setDocumentFrequencies(df, 't');
    const r = await fresh.ingestApi.ingestBatch([{ name: 'a.txt', file: file(long) }], tfidf);
    expect(r.status[0]).toBe(DocStatus.ok);
  });
});

describe('ingestApi.ingestBatch modification times', () => {
  it("reports each file's lastModified, or the page's record for bytes it read", async () => {
    const r = await ingestApi.ingestBatch(
      [
        { name: 'a.txt', file: new File([PROSE], 'a.txt', { lastModified: 1_650_000_000_000 }) },
        { name: 'b.txt', bytes: new TextEncoder().encode(PROSE), lastModified: 1_660_000_000_000 },
        { name: 'c.txt', bytes: new TextEncoder().encode(PROSE) },
      ],
      DEFAULT_SETTINGS,
    );
    expect([...r.modified!]).toEqual([1_650_000_000_000, 1_660_000_000_000, 0]);
  });
});
