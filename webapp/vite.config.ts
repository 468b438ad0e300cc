/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The mini app is served by the `fragbox` binary from `webapp/dist` on the same origin as
// `/api/v1`, so every path here is absolute from `/`. In `npm run dev` the API calls are
// proxied to a locally running `fragbox` (BIND_ADDR 127.0.0.1:8080 by default).
export default defineConfig({
  plugins: [react()],
  base: '/',
  server: {
    proxy: {
      '/api': process.env.FRAGBOX_URL ?? 'http://127.0.0.1:8080',
      '/catalog': process.env.FRAGBOX_URL ?? 'http://127.0.0.1:8080',
      '/legal': process.env.FRAGBOX_URL ?? 'http://127.0.0.1:8080',
    },
  },
  build: {
    outDir: 'dist',
    target: 'es2020',
    sourcemap: false,
    // Spec section 9: script chunks may take up to 120 s on a poor connection; Vite has no
    // loader timeout of its own, the route error screen offers a reload when a chunk fails.
    chunkSizeWarningLimit: 200,
  },
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    setupFiles: ['src/test/setup.ts'],
  },
});
