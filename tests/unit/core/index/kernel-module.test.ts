// The committed WebAssembly kernel modules (src/core/index/pair-scan-wasm.ts, src/core/simhash/fingerprint-wasm.ts) are what their AssemblyScript
// sources compile to: core's tests need no build step on a fresh clone, and the modules cannot drift.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('every src/core/**/*-wasm.ts is what its kernels/*.ts compiles to', () => {
  const root = fileURLToPath(new URL('../../../../', import.meta.url));
  expect(() => execFileSync(process.execPath, ['bin/build-kernels.js', '--check'], { cwd: root, stdio: 'pipe' })).not.toThrow();
});
