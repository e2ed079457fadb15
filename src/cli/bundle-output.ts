/**
 * `simsift scan --bundle FILE`: the finished scan as the page opens it (core/export/scan-bundle.ts):
 * documents in path order with their sizes and times, the verified pairs, the settings and exclusions.
 */
import type { StorageId, StorageIds } from '../core/ids.ts';
import { realpath } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { encodeScanBundle, type ScanBundle } from '../core/export/scan-bundle.ts';
import { FINGERPRINT_RULE } from '../core/simhash/fingerprint-rule.ts';
import { SIMSIFT_VERSION } from '../core/version.ts';
import type { Exclusions } from '../core/documents/exclusions.ts';
import type { ScanResult } from '../scan/scan-result.ts';
import { verifiedByStorageId } from '../corpus/restore-corpus.ts';
import type { AtomicFile } from './atomic-file.ts';
import { escapeName } from './terminal-names.ts';

/** What the bundle records beyond the result: where and when the scan ran and how it was asked. */
export interface BundleContext {
  dir: string;
  scannedAt: number;
  kAuto: boolean;
  exclusions: Exclusions;
}

/** The bundle of a finished scan (every document read: the CLI writes none of a scan that stopped). */
export async function bundleOfResult(result: ScanResult, context: BundleContext): Promise<ScanBundle> {
  const docs = result.docs;
  const root = await realpath(resolve(context.dir));
  // A bundle numbers documents by position: the positions stand in as ids, on purpose, so the cast says so.
  const positions = Uint32Array.from({ length: docs.count }, (_, d) => d) as StorageIds;
  const pairs = verifiedByStorageId(result, positions, -1 as StorageId);
  return {
    simsift: SIMSIFT_VERSION,
    rule: FINGERPRINT_RULE,
    root,
    // The root of the file system has no name: the page then asks for the folder by its path.
    name: basename(root) || root,
    scannedAt: context.scannedAt,
    settings: result.settings,
    k: result.k,
    kAuto: context.kAuto,
    threshold: result.similarityThreshold,
    grouping: result.grouping,
    exclusions: context.exclusions,
    documents: {
      count: docs.count,
      paths: docs.paths,
      sizes: docs.sizes,
      modified: docs.modified ?? new Float64Array(docs.count),
      status: docs.status,
      flags: docs.flags,
      hi: docs.hi,
      lo: docs.lo,
      words: docs.words,
      hashHi: docs.hashHi,
      hashLo: docs.hashLo,
    },
    pairs: { count: pairs.count, a: pairs.a, b: pairs.b, distance: pairs.distance, jaccard: pairs.jaccard, histogram: pairs.histogram },
  };
}

/** Writes the bundle to `output` (opened before the scan, committed when whole); returns the summary's line. */
export async function writeBundle(result: ScanResult, context: BundleContext, output: AtomicFile): Promise<string> {
  const bundle = await bundleOfResult(result, context);
  for (const part of await encodeScanBundle(bundle)) await output.write(part);
  await output.commit();
  return `simsift scan: bundle ${escapeName(output.target)}: ${bundle.documents.count} documents, ${bundle.pairs.count} verified pairs (open it in the page beside the folder)\n`;
}
