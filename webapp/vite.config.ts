/// <reference types="vitest/config" />
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * Writes `.br` and `.gz` twins of every script, style, HTML, SVG and JSON file in `dist/`, at
 * the best compression (done once per build). The server's `ServeDir` sends the twin the
 * browser accepts (`precompressed_br` / `precompressed_gzip`).
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'fragbox-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((f) => {
          const p = join(dir, f);
          return statSync(p).isDirectory() ? walk(p) : [p];
        });
      for (const file of walk(outDir)) {
        if (!/\.(js|mjs|css|html|svg|json|txt|webmanifest)$/.test(file)) continue;
        const raw = readFileSync(file);
        if (raw.length < 512) continue;
        writeFileSync(`${file}.br`, brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }));
        writeFileSync(`${file}.gz`, gzipSync(raw, { level: 9 }));
      }
    },
  };
}

// The mini app is served by the `fragbox` binary from `webapp/dist` on the same origin as
// `/api/v1`, so every path here is absolute from `/`. In `npm run dev` the API calls are
// proxied to a locally running `fragbox` (BIND_ADDR 127.0.0.1:8080 by default).
export default defineConfig({
  plugins: [react(), precompress()],
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
