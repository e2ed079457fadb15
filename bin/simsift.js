#!/usr/bin/env node
// The `simsift` command: runs the CLI (src/cli/main.ts) from its prebuilt bundle in dist-cli/ (made by
// `npm install`, rebuilt here when a source changed: bin/build-cli.js), or, when it cannot be built,
// from the TypeScript sources through tsx's loader. Either way one source, no separate build step.
import { cliEntry } from './build-cli.js';

const entry = process.env.SIMSIFT_FROM_SOURCE ? null : await cliEntry();
if (entry) {
  await import(entry.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
