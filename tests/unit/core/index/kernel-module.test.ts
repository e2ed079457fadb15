// The committed WebAssembly kernel module (src/core/index/pair-scan-wasm.ts) is what its AssemblyScript
// source compiles to: core's tests need no build step on a fresh clone, and the module cannot drift.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('src/core/index/pair-scan-wasm.ts is what kernels/pair-scan.ts compiles to', () => {
  const root = fileURLToPath(new URL('../../../../', import.meta.url));
  expect(() => execFileSync(process.execPath, ['bin/build-kernels.js', '--check'], { cwd: root, stdio: 'pipe' })).not.toThrow();
});
