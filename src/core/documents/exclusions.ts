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

/** One step of a compiled glob: a character, `?`, `*` (no '/'), `**` (anything) or `**` before a '/' (nothing, or anything ending in '/'). */
type GlobToken = { kind: 'char'; code: number } | { kind: 'one' } | { kind: 'star' } | { kind: 'globstar' } | { kind: 'globstarSlash' };

const SLASH = 0x2f;

function globTokens(glob: string): GlobToken[] {
  const tokens: GlobToken[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        i++;
        if (glob[i + 1] === '/') {
          i++;
          tokens.push({ kind: 'globstarSlash' });
        } else tokens.push({ kind: 'globstar' });
      } else tokens.push({ kind: 'star' });
    } else if (c === '?') tokens.push({ kind: 'one' });
    else tokens.push({ kind: 'char', code: glob.charCodeAt(i) });
  }
  return tokens;
}

/**
 * A glob as a predicate over a '/'-separated path: `*` any characters but '/', `**` any characters,
 * `**` before a '/' no folder or any folders, `?` one character but '/'. A name glob matches the last segment;
 * a path glob the path's end at a folder boundary (so `drafts/**` matches `docs/drafts/a.txt` in the
 * app, whose paths start with the chosen folder, and in the CLI).
 *
 * Why not a regular expression (nor picomatch, which compiles to one): a backtracking engine tries
 * every way to place the stars, so `*-*-*-*-*-*.log` against a name of 120 hyphens ran for minutes.
 * This runs the glob as a set of states over the path, once per character: time is at most the
 * path's length times the glob's, whatever the two hold.
 */
export function globMatcher(glob: string): (path: string) => boolean {
  const tokens = globTokens(glob);
  const m = tokens.length;
  // State i (0..m): before token i; state m + 1 + i: inside the `**` + '/' of token i (it must end with a '/').
  let current = new Uint8Array(2 * m + 2);
  let next = new Uint8Array(2 * m + 2);
  /** Adds state `s` and what it reaches without a character (a star may match nothing). */
  const add = (set: Uint8Array, s: number) => {
    while (s <= m && set[s] === 0) {
      set[s] = 1;
      if (s === m) return;
      const kind = tokens[s]!.kind;
      if (kind !== 'star' && kind !== 'globstar' && kind !== 'globstarSlash') return;
      s++;
    }
  };
  return (path) => {
    current.fill(0);
    add(current, 0);
    for (let at = 0; at < path.length; at++) {
      const c = path.charCodeAt(at);
      next.fill(0);
      for (let s = 0; s < m; s++) {
        if (current[s] === 1) {
          const token = tokens[s]!;
          if (token.kind === 'char') {
            if (token.code === c) add(next, s + 1);
          } else if (token.kind === 'one') {
            if (c !== SLASH) add(next, s + 1);
          } else if (token.kind === 'star') {
            if (c !== SLASH) add(next, s);
          } else if (token.kind === 'globstar') add(next, s);
          else if (c === SLASH) add(next, s + 1);
          else next[m + 1 + s] = 1;
        }
        if (current[m + 1 + s] === 1) {
          if (c === SLASH) add(next, s + 1);
          next[m + 1 + s] = 1;
        }
      }
      // The glob may start after any '/': a match at a folder boundary.
      if (c === SLASH) add(next, 0);
      [current, next] = [next, current];
    }
    return current[m] === 1;
  };
}

/** The longest pattern taken: matching costs the path's length times the pattern's, so both are bounded. */
export const MAX_PATTERN_LENGTH = 1024;

/**
 * Why a pattern cannot be used as written, or null: longer than MAX_PATTERN_LENGTH, or written in a
 * glob syntax this matcher does not have (braces `{a,b}`, backslash escapes), which would otherwise
 * match nothing without a word.
 */
export function patternProblem(pattern: string): string | null {
  const supported = 'supported: * (any characters but /), ** (any characters), ? (one character); every other character matches itself';
  if (pattern.length > MAX_PATTERN_LENGTH) return `is ${pattern.length.toLocaleString('en')} characters long, over the ${MAX_PATTERN_LENGTH.toLocaleString('en')} a pattern may have`;
  if (/[{}]/.test(pattern)) return `has braces, which are not supported: write one pattern per alternative (${supported})`;
  if (pattern.includes('\\')) return `has a backslash: escapes are not supported (${supported})`;
  return null;
}

/** The compiled form of `exclusions` for many paths. */
export function exclusionMatcher(exclusions: Exclusions): (path: string, size?: number) => string | null {
  const globs = exclusions.patterns.filter((p) => p.trim() !== '').map((p) => ({ p, matches: globMatcher(p.trim().replace(/^\/+/, '')) }));
  const exts = new Set(exclusions.extensions.map((e) => e.trim().replace(/^\./, '').toLowerCase()).filter((e) => e !== ''));
  // No rule: nothing to cut or lower-case per path (a scan asks for each of its 100,000 files).
  if (globs.length === 0 && exts.size === 0 && exclusions.minSize === null && exclusions.maxSize === null) return () => null;
  return (path, size) => {
    for (const { p, matches } of globs) if (matches(path)) return `pattern ${p}`;
    if (exts.size > 0) {
      const name = path.slice(path.lastIndexOf('/') + 1);
      const dot = name.lastIndexOf('.');
      if (dot > 0 && exts.has(name.slice(dot + 1).toLowerCase())) return `extension .${name.slice(dot + 1).toLowerCase()}`;
    }
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
