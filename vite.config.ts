/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Cross-origin isolation lets the app share one SharedArrayBuffer between index workers;
// the app also works without it (buffers are then transferred as copies).
const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  plugins: [react()],
  worker: { format: 'es' },
  server: { headers: isolationHeaders },
  preview: { headers: isolationHeaders },
  build: { target: 'es2022' },
  test: {
    include: ['tests/unit/**/*.test.ts'],
    environment: 'node',
    // No unit test is a timed test (speed is checked by benches): on a loaded 2-core machine a
    // test that takes 6 s instead of 2 must not fail for it. Vitest's default is 5 s.
    testTimeout: 60_000,
  },
});
