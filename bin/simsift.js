#!/usr/bin/env node
// The `simsift` command: runs the TypeScript CLI (src/cli/main.ts) through tsx's loader, so the
// CLI and the app share one source with no separate build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
