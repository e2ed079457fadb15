/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

// Cross-origin isolation lets the app share one SharedArrayBuffer between index workers;
// the app also works without it (buffers are then transferred as copies).
const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

// Installable and offline: a web app manifest, and a service worker that precaches the whole built app
// (workers, the pdf.js chunks that carry its worker, the sample corpus) so it opens and scans offline
// after one visit. The workbox runtime is emitted beside sw.js (generateSW's default, never a CDN), and
// the worker has no runtime caching: it fetches nothing but the app's own files, once, at install.
// A new version waits until every tab of the old one is closed ('prompt' without a prompt): taking over a
// running page would drop the old hashed chunks it may still load lazily.
const pwa = VitePWA({
  registerType: 'prompt',
  // A script file, not an inline script: the Content-Security-Policy allows scripts from 'self' only.
  injectRegister: 'script',
  manifest: {
    name: 'SimSift: find near-duplicate texts',
    short_name: 'SimSift',
    description: 'Find near-duplicate texts with SimHash. Your files never leave this machine.',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    // The light page's colours; index.html's theme-color metas give the dark ones.
    background_color: '#f6f7f9',
    theme_color: '#f6f7f9',
    icons: [
      { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
      { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml' },
      { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    mode: 'production',
    globPatterns: ['**/*.{js,mjs,css,html,svg,png,wasm,webmanifest,json,txt}'],
    // The pdf.js chunks (which carry pdf.js's own worker) are about 1.7 MB each; the default cap is 2 MiB.
    maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
    cleanupOutdatedCaches: true,
    navigateFallback: 'index.html',
  },
});

export default defineConfig({
  plugins: [react(), pwa],
  worker: { format: 'es' },
  server: { headers: isolationHeaders },
  preview: { headers: isolationHeaders },
  build: { target: 'es2022' },
  test: {
    include: ['tests/unit/**/*.test.ts'],
    globalSetup: ['tests/unit/global-setup.ts'],
    environment: 'node',
    // No unit test is a timed test (speed is checked by benches): on a loaded 2-core machine a
    // test that takes 6 s instead of 2 must not fail for it. Vitest's default is 5 s.
    testTimeout: 60_000,
    // Vitest runs one file at a time on a 2-core machine (cores - 1); the suite is mostly
    // single-threaded files, so two at once keeps CI under its 15 minutes.
    maxWorkers: 2,
  },
});
