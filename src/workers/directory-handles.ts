/**
 * Owns reading a scan's files through File System Access handles inside a worker: walking the handles
 * a person gave (a chosen folder, dropped folders and files) into the scan's relative paths, and opening
 * a file again by such a path. Paths are what the folder input gives (`webkitRelativePath`): the root's
 * name, then the path below it, `/`-separated, so the same folder is the same paths either way. Nothing
 * is skipped silently: hidden names go to the hidden log, and a folder that cannot be listed gets an
 * 'unreadable' record. Written against the few members it uses, so a plain object tree can stand in for
 * a real handle tree in unit tests.
 */
import { HiddenLog, isHiddenName, unreadableListing, type ListedSkip } from '../core/documents/hidden-files.ts';

/** The part of a FileSystemFileHandle this module uses. */
export interface FileEntryHandle {
  readonly kind: 'file';
  readonly name: string;
  getFile(): Promise<File>;
}

/** The part of a FileSystemDirectoryHandle this module uses. */
export interface DirectoryEntryHandle {
  readonly kind: 'directory';
  readonly name: string;
  values(): AsyncIterable<FileEntryHandle | DirectoryEntryHandle>;
  getDirectoryHandle(name: string): Promise<DirectoryEntryHandle>;
  getFileHandle(name: string): Promise<FileEntryHandle>;
}

export type EntryHandle = FileEntryHandle | DirectoryEntryHandle;

/** What a walk found: every file's path in path order (UTF-16 code units, as collect-files sorts), and what it left out. */
export interface HandleListing {
  paths: string[];
  /** Hidden files and folders, and folders that could not be listed (path ends in `/`). */
  skipped: ListedSkip[];
  /**
   * Asked for (`stat`): each path's size (-1: it could not be opened) and modification time (0: unknown),
   * by position in `paths`, from the handle the walk listed it by.
   */
  stats?: { sizes: Float64Array; modified: Float64Array };
}

/** Folders listed at once: each listing is a round trip to the browser process. */
const LIST_CONCURRENCY = 8;
/** Files opened at once for their size and time while walking (each `getFile()` is a round trip too). */
const STAT_IN_FLIGHT = 32;

/**
 * Opens listed file handles for their size and time, up to STAT_IN_FLIGHT at once, while the walk goes
 * on: the handle at hand costs one `getFile()`, where opening by path later lists its folder again.
 */
function createStatQueue() {
  const sizes: number[] = [];
  const modified: number[] = [];
  const queue: Array<[FileEntryHandle, number]> = [];
  const lanes = new Set<Promise<void>>();
  let running = 0;
  const lane = async () => {
    running++;
    try {
      while (queue.length > 0) {
        const [handle, at] = queue.pop()!;
        try {
          const file = await handle.getFile();
          sizes[at] = file.size;
          modified[at] = file.lastModified;
        } catch {
          // Gone or locked since it was listed: unknown, as statHandles says.
          sizes[at] = -1;
          modified[at] = 0;
        }
      }
    } finally {
      // In the same turn as the empty-queue check: a handle queued after it starts a lane of its own.
      running--;
    }
  };
  return {
    add(handle: FileEntryHandle, at: number) {
      queue.push([handle, at]);
      if (running < STAT_IN_FLIGHT) {
        const started = lane().finally(() => lanes.delete(started));
        lanes.add(started);
      }
    },
    /** Every size and time, once all are in, in the order `order` gives (positions as `add` was told). */
    async done(order: readonly number[]) {
      while (lanes.size > 0) await Promise.all([...lanes]);
      return { sizes: Float64Array.from(order, (i) => sizes[i]!), modified: Float64Array.from(order, (i) => modified[i]!) };
    },
  };
}

export function describeHandleError(error: unknown): string {
  if (error instanceof DOMException) {
    if (error.name === 'NotFoundError') return 'file not found';
    if (error.name === 'NotAllowedError') return 'permission denied';
    return error.message ? `${error.name}: ${error.message}` : error.name;
  }
  return error instanceof Error ? error.message : String(error);
}

/** What `walkHandles` does besides listing. */
export interface WalkOptions {
  /** Ask each file its size and time as it is listed (a quick check will need them). */
  stat?: boolean;
  /**
   * Walk only share `index` of `count`: each root folder's entries, in name order, dealt out in turn
   * (entry i to share i % count), loose root files to share 0. The shares' listings merged
   * (`mergeListings`) are the whole walk's, so workers can walk a folder together.
   */
  share?: { index: number; count: number };
}

/**
 * Walks `roots` (each one a file or a folder; a folder's files are `name/relative path`), hidden names
 * left out (a hidden folder is not entered), up to LIST_CONCURRENCY folders listed at a time.
 */
export async function walkHandles(roots: readonly EntryHandle[], options: WalkOptions = {}): Promise<HandleListing> {
  const share = options.share && options.share.count > 1 ? options.share : null;
  const first = !share || share.index === 0;
  const paths: string[] = [];
  const stats = options.stat ? createStatQueue() : null;
  const listFile = (handle: FileEntryHandle, path: string) => {
    paths.push(path);
    stats?.add(handle, paths.length - 1);
  };
  const hidden = new HiddenLog();
  const unreadable: ListedSkip[] = [];
  let slots = LIST_CONCURRENCY;
  const waiting: Array<() => void> = [];
  const acquire = async () => {
    if (slots > 0) slots--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else slots++;
  };
  const visit = async (dir: DirectoryEntryHandle, path: string, deal = false): Promise<void> => {
    const folders: Array<[DirectoryEntryHandle, string]> = [];
    const take = (child: EntryHandle) => {
      const childPath = `${path}/${child.name}`;
      if (isHiddenName(child.name)) {
        if (child.kind === 'directory') hidden.addFolder(childPath + '/', 0, 0);
        else hidden.check(childPath.split('/'), 0);
      } else if (child.kind === 'directory') folders.push([child, childPath]);
      else listFile(child, childPath);
    };
    // A root folder walked in shares: its whole listing first, then this share's entries of it.
    const dealt: EntryHandle[] | null = deal && share ? [] : null;
    let listed = 0;
    await acquire();
    try {
      for await (const child of dir.values()) {
        listed++;
        if (dealt) dealt.push(child);
        else take(child);
      }
    } catch (error) {
      const why = describeHandleError(error);
      if (!dealt || first) unreadable.push(unreadableListing(path + '/', listed === 0 ? why : `${why}; the ${listed} entries listed before that are scanned`));
    } finally {
      release();
    }
    if (dealt) {
      dealt.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      dealt.forEach((child, i) => i % share!.count === share!.index && take(child));
    }
    await Promise.all(folders.map(([child, childPath]) => visit(child, childPath)));
  };
  const walks: Array<Promise<void>> = [];
  for (const root of roots) {
    if (root.kind === 'directory' && !isHiddenName(root.name)) walks.push(visit(root, root.name, true));
    else if (!first) continue;
    else if (isHiddenName(root.name)) {
      if (root.kind === 'directory') hidden.addFolder(root.name + '/', 0, 0);
      else hidden.check([root.name], 0);
    } else if (root.kind === 'file') listFile(root, root.name);
  }
  await Promise.all(walks);
  const skipped = [...hidden.list(), ...unreadable];
  if (!stats) return { paths: paths.sort(), skipped };
  const order = Array.from(paths.keys()).sort((x, y) => (paths[x]! < paths[y]! ? -1 : paths[x]! > paths[y]! ? 1 : 0));
  return { paths: order.map((i) => paths[i]!), skipped, stats: await stats.done(order) };
}

/**
 * One listing from the listings of a walk's shares (WalkOptions.share): the paths merged in path
 * order (each share's are), each with its stats, and every share's skipped entries.
 */
export function mergeListings(shares: readonly HandleListing[]): HandleListing {
  let merged = shares[0] ?? { paths: [], skipped: [] };
  for (const next of shares.slice(1)) {
    const paths: string[] = [];
    const from: Array<[HandleListing, number]> = [];
    let a = 0;
    let b = 0;
    while (a < merged.paths.length || b < next.paths.length) {
      const pa = merged.paths[a];
      const pb = next.paths[b];
      // A path both shares list (a root whose listing failed part-way, dealt differently) is kept once.
      if (pb === undefined || (pa !== undefined && pa <= pb)) {
        if (pa === pb) b++;
        paths.push(pa!);
        from.push([merged, a++]);
      } else {
        paths.push(pb);
        from.push([next, b++]);
      }
    }
    const withStats = merged.stats && next.stats;
    merged = {
      paths,
      skipped: [...merged.skipped, ...next.skipped],
      ...(withStats
        ? { stats: { sizes: Float64Array.from(from, ([l, i]) => l.stats!.sizes[i]!), modified: Float64Array.from(from, ([l, i]) => l.stats!.modified[i]!) } }
        : {}),
    };
  }
  return merged;
}

/**
 * Opens files by the paths `walkHandles` gave, under the same roots. Each folder on the way is looked
 * up once, and a folder's files are listed once (one stream of entries) instead of one `getFileHandle`
 * round trip per file: a batch's paths are neighbours in path order, so they share folders. A name not
 * in the listing (added since) is asked for directly. Opening a file then costs one `getFile()`.
 */
export function createPathOpener(roots: readonly EntryHandle[]): (path: string) => Promise<File> {
  const byName = new Map<string, EntryHandle>();
  for (const root of roots) if (!byName.has(root.name)) byName.set(root.name, root);
  const folders = new Map<string, Promise<DirectoryEntryHandle>>();
  const listings = new Map<string, Promise<Map<string, FileEntryHandle>>>();
  const forget = <T>(cache: Map<string, Promise<T>>, path: string, found: Promise<T>) => {
    // A failed lookup is not kept: the next file in that folder asks again.
    found.catch(() => cache.delete(path));
    cache.set(path, found);
    return found;
  };
  const folder = (path: string): Promise<DirectoryEntryHandle> => {
    const known = folders.get(path);
    if (known) return known;
    const cut = path.lastIndexOf('/');
    if (cut >= 0) return forget(folders, path, folder(path.slice(0, cut)).then((parent) => parent.getDirectoryHandle(path.slice(cut + 1))));
    const root = byName.get(path);
    return forget(folders, path, root?.kind === 'directory' ? Promise.resolve(root) : Promise.reject(new DOMException(`no folder ${path} was chosen`, 'NotFoundError')));
  };
  const filesOf = (path: string): Promise<Map<string, FileEntryHandle>> => {
    const known = listings.get(path);
    if (known) return known;
    return forget(
      listings,
      path,
      folder(path).then(async (dir) => {
        const files = new Map<string, FileEntryHandle>();
        for await (const child of dir.values()) if (child.kind === 'file') files.set(child.name, child);
        return files;
      }),
    );
  };
  return async (path) => {
    const cut = path.lastIndexOf('/');
    if (cut < 0) {
      const root = byName.get(path);
      if (root?.kind !== 'file') throw new DOMException(`no file ${path} was chosen`, 'NotFoundError');
      return root.getFile();
    }
    const parent = path.slice(0, cut);
    const name = path.slice(cut + 1);
    const listed = await filesOf(parent).catch(() => null);
    const handle = listed?.get(name) ?? (await (await folder(parent)).getFileHandle(name));
    return handle.getFile();
  };
}
