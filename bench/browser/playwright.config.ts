/**
 * The browser benches: `npx playwright test -c bench/browser/playwright.config.ts` (SIMSIFT_E2E_PORT
 * as for the e2e tests). The e2e configuration (system Chromium, the built app served by vite
 * preview) over the *.bench.spec.ts files here, which print what they measure and assert no duration.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import e2e from '../../playwright.config.ts';

// The web server builds and serves from the repository's root (Playwright starts it in this file's folder).
const root = fileURLToPath(new URL('../..', import.meta.url));

export default defineConfig({ ...e2e, testDir: '.', testMatch: '*.bench.spec.ts', timeout: 300_000, webServer: { ...e2e.webServer!, cwd: root } });
