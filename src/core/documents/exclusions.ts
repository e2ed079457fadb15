/**
 * Exclusions a person sets before a scan: glob patterns, extensions, a minimum and maximum size. An
 * excluded file is never read; it is listed with the rule that excluded it.
 */

/** What to leave out of a scan. */
export interface Exclusions {
  /** Globs: `*` any characters but '/', `**` any characters, `?` one; matched against the path's end at a folder boundary. */
  patterns: string[];
  /** Extensions without the dot, compared case-insensitively (`log`, `tmp`). */
  extensions: string[];
  /** Smallest size in bytes kept (files below are excluded), or null. */
  minSize: number | null;
  /** Largest size in bytes kept, or null. */
  maxSize: number | null;
}

export const NO_EXCLUSIONS: Exclusions = { patterns: [], extensions: [], minSize: null, maxSize: null };

/** A glob as a regular expression over a '/'-separated path. */
export function globRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        i++;
        // `**/` also matches no folder at all.
        if (glob[i + 1] === '/') {
          i++;
          out += '(?:.*/)?';
        } else out += '.*';
      } else out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  // A name glob matches the last segment; a path glob the path's end at a folder boundary (so `drafts/**`
  // matches `docs/drafts/a.txt` in the app, whose paths start with the chosen folder, and in the CLI).
  return new RegExp(`(?:^|/)${out}$`);
}

/** The compiled form of `exclusions` for many paths. */
export function exclusionMatcher(exclusions: Exclusions): (path: string, size?: number) => string | null {
  const globs = exclusions.patterns.filter((p) => p.trim() !== '').map((p) => ({ p, re: globRegExp(p.trim().replace(/^\/+/, '')) }));
  const exts = new Set(exclusions.extensions.map((e) => e.trim().replace(/^\./, '').toLowerCase()).filter((e) => e !== ''));
  return (path, size) => {
    for (const { p, re } of globs) if (re.test(path)) return `pattern ${p}`;
    const name = path.slice(path.lastIndexOf('/') + 1);
    const dot = name.lastIndexOf('.');
    if (dot > 0 && exts.has(name.slice(dot + 1).toLowerCase())) return `extension .${name.slice(dot + 1).toLowerCase()}`;
    if (size !== undefined && exclusions.minSize !== null && size < exclusions.minSize) return `smaller than ${exclusions.minSize} bytes`;
    if (size !== undefined && exclusions.maxSize !== null && size > exclusions.maxSize) return `larger than ${exclusions.maxSize} bytes`;
    return null;
  };
}

/** A size option: bytes, or with a unit (k, M, G: powers of 1,000; KiB, MiB, GiB: of 1,024). Null when not one. */
export function parseSize(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*(|b|k|kb|m|mb|g|gb|kib|mib|gib)$/i.exec(text.trim());
  if (!m) return null;
  const unit = m[2]!.toLowerCase();
  const scale: Record<string, number> = { '': 1, b: 1, k: 1e3, kb: 1e3, m: 1e6, mb: 1e6, g: 1e9, gb: 1e9, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 };
  return Math.round(Number(m[1]) * scale[unit]!);
}
