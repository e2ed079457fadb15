/** A tiny tmpfs for the tests of full disks (they run as root); null where mounting is not allowed. */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** Mounts a tmpfs of `size` (e.g. '64k') at `parent/small` and returns its path, or null when it cannot. */
export function mountSmallFilesystem(parent: string, size = '64k'): string | null {
  const mount = join(parent, 'small');
  mkdirSync(mount);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', mount], { stdio: 'ignore' });
    return mount;
  } catch {
    return null;
  }
}

/** Unmounts what `mountSmallFilesystem` mounted. */
export function unmountSmallFilesystem(mount: string | null): void {
  if (mount) execFileSync('umount', [mount]);
}
