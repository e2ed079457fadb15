import { defineConfig } from '@playwright/test';

// Playwright never downloads a browser here: it drives the system Chromium.
// Override the path with SIMSIFT_CHROMIUM=/path/to/chromium.
const chromium = process.env.SIMSIFT_CHROMIUM ?? '/usr/bin/chromium';
// The port comes from SIMSIFT_E2E_PORT (default 4173); a server already on it is never reused, so a
// stale build (or `npm start` on another port's twin) can never answer for this one.
const port = Number(process.env.SIMSIFT_E2E_PORT ?? 4173);

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    command: `npx vite build --logLevel warn && npx vite preview --host 127.0.0.1 --port ${port} --strictPort`,
    url: `http://127.0.0.1:${port}`,
    reuseExistingServer: false,
    timeout: 120_000,
  },
});
