/**
 * A file on disk handed to the scan as a Blob, opened only when read. `fs.openAsBlob` opens and stats
 * the file at once (about 34 µs each: seconds for 100,000 files), while most of a cached scan's files
 * are never read, and a first scan reads each file once anyway.
 */
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import type { DiskRef } from '../workers/ingest-protocol.ts';
import { fsPath } from './terminal-names.ts';

/** Why a read of a listed file failed when its size or time is not the listing's (here and in the ingest threads). */
export const CHANGED_SINCE_LISTED = 'the file changed since it was listed';

/** The file's stat when it was listed: a read finds it changed (size or time) and fails, as a file-backed Blob does. */
export interface ListedStat {
  size: number;
  mtimeMs: number;
}

const notPostable = () => undefined;

/**
 * What the scan reads of a file: `size`, `stream()`, `slice()`, `arrayBuffer()`. Not a Blob subclass on
 * purpose: posting a Blob subclass to a thread would silently send an empty Blob; this object holds a
 * function, so posting it throws (DataCloneError), as posting a file-backed Blob does.
 */
class DiskFile {
  readonly type = '';
  /** Makes the object uncloneable (see the class comment); one function for all (a cached scan holds 100,000 of these). */
  readonly notPostable = notPostable;

  constructor(
    private readonly path: string,
    /** The size and modification time it was listed with, as fields (no object per file). */
    private readonly listedSize: number,
    private readonly listedMtimeMs: number,
    private readonly start = 0,
    private readonly end = listedSize,
  ) {}

  /** Asked rarely: a scan holds one per unchanged file of a cached folder (100,000 basenames for nothing). */
  get name(): string {
    return basename(this.path);
  }

  get size(): number {
    return this.end - this.start;
  }

  stream(): ReadableStream<Uint8Array> {
    const { path, start, end } = this;
    const listed: ListedStat = { size: this.listedSize, mtimeMs: this.listedMtimeMs };
    let source: Readable | null = null;
    return new ReadableStream<Uint8Array>({
      async start(controller) {
        const handle = await open(fsPath(path), 'r');
        const info = await handle.stat();
        if (info.size !== listed.size || info.mtimeMs !== listed.mtimeMs) {
          await handle.close();
          controller.error(new Error(CHANGED_SINCE_LISTED));
          return;
        }
        if (end <= start) {
          await handle.close();
          controller.close();
          return;
        }
        source = handle.createReadStream({ start, end: end - 1 });
        source.on('data', (chunk) => controller.enqueue(new Uint8Array((chunk as Buffer).buffer, (chunk as Buffer).byteOffset, (chunk as Buffer).byteLength)));
        source.on('end', () => controller.close());
        source.on('error', (error) => controller.error(error));
      },
      cancel() {
        source?.destroy();
      },
    });
  }

  /** The whole file as an ingest thread reads it (null for a slice). */
  ref(): DiskRef | null {
    return this.start === 0 && this.end === this.listedSize ? { path: this.path, size: this.listedSize, mtimeMs: this.listedMtimeMs } : null;
  }

  slice(from = 0, to = this.size): DiskFile {
    const clamp = (x: number) => Math.max(0, Math.min(this.size, x < 0 ? this.size + x : x));
    return new DiskFile(this.path, this.listedSize, this.listedMtimeMs, this.start + clamp(from), this.start + Math.max(clamp(from), clamp(to)));
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    return new Response(this.stream()).arrayBuffer();
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.arrayBuffer());
  }
}

/** The file at `path` (as `fsPath` names it) as the Blob the scan reads, checked against `listed` when read. */
export function diskFile(path: string, listed: ListedStat): File {
  return new DiskFile(path, listed.size, listed.mtimeMs) as unknown as File;
}

/** The disk file a scan's Blob stands for, for its thread to read (ScanWorkers.diskRef); null for any other Blob. */
export function diskRefOf(file: Blob): DiskRef | null {
  return file instanceof DiskFile ? file.ref() : null;
}
