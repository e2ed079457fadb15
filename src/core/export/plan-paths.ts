/** What a plan path may be: a plain relative path, '/'-separated, that cannot leave the folder it is under. */

/** The parts of a plan path, or null when it is not a plain relative path (absolute, `..`, `.`, empty parts, a backslash, a NUL). */
export function pathParts(path: string): string[] | null {
  if (path === '' || path.startsWith('/') || path.includes('\\') || path.includes('\0')) return null;
  const parts = path.split('/');
  return parts.some((p) => p === '' || p === '.' || p === '..') ? null : parts;
}
