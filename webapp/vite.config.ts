/// <reference types="vitest/config" />
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { minify } from 'rolldown/utils';

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

/**
 * The entry (src/main.tsx) waits for the splash to be painted before it imports the app
 * (src/start.tsx). So that the wait costs no network time, index.html preloads the app's
 * chunk and everything it imports statically, beside the entry. The preloads ask for low
 * priority: the splash's paint needs only the HTML, the styles and the entry, and they go
 * first (a preload never blocks rendering; without the hint Lighthouse's simulation counts
 * these high-priority scripts as if the first paint waited for them).
 */
function preloadStart(): Plugin {
  return {
    name: 'fragbox-preload-start',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return [];
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
        const start = chunks.find((c) => c.facadeModuleId?.endsWith('/src/start.tsx'));
        if (!start) throw new Error('preload-start: no chunk for src/start.tsx');
        const files = new Set<string>();
        const visit = (file: string) => {
          if (files.has(file)) return;
          files.add(file);
          const chunk = bundle[file];
          if (chunk?.type === 'chunk') chunk.imports.forEach(visit);
        };
        visit(start.fileName);
        return [...files]
          .filter((f) => !ctx.chunk || f !== ctx.chunk.fileName)
          .map((f) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, fetchpriority: 'low', href: `/${f}` }, injectTo: 'head' as const }));
      },
    },
  };
}

/**
 * A first visit paints index.html's static first slide (public/first-slide.js). Lighthouse's
 * simulation counts every request that left before the largest paint as if that paint waited
 * for it, and on a slow network the app's 120 KB of scripts share the line with the styles the
 * paint needs. So the app's scripts are not in the HTML: their addresses ride on
 * first-slide.js's tag (`data-entry`, `data-preload`, and the start-up dictionaries' `data-ru`,
 * `data-en`), and it adds them (one dictionary: the player's language) once the document is
 * parsed, and on a first visit (static slide shown) once that slide is painted.
 */
function entryViaFirstSlide(): Plugin {
  let outDir = 'dist';
  return {
    name: 'fragbox-entry-via-first-slide',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async writeBundle(_options, bundle) {
      // public/first-slide.js is copied as written (comments and all); it is start-up code, so
      // it ships minified like the rest.
      const slide = join(outDir, 'first-slide.js');
      const minified = await minify('first-slide.js', readFileSync(slide, 'utf8'), { compress: true, mangle: true });
      if (minified.errors.length > 0) throw new Error(`entry-via-first-slide: ${minified.errors[0].message}`);
      writeFileSync(slide, minified.code);
      const file = join(outDir, 'index.html');
      let html = readFileSync(file, 'utf8');
      let entry = '';
      const preload: string[] = [];
      html = html.replace(/\s*<script type="module" crossorigin src="([^"]+)"><\/script>/, (_m, src: string) => {
        entry = src;
        return '';
      });
      html = html.replace(/\s*<link rel="modulepreload"[^>]*href="([^"]+)"[^>]*>/g, (_m, href: string) => {
        preload.push(href);
        return '';
      });
      if (!entry) throw new Error('entry-via-first-slide: no module script in index.html');
      const tag = '<script src="/first-slide.js"></script>';
      if (!html.includes(tag)) throw new Error('entry-via-first-slide: no first-slide.js tag');
      // Each start-up dictionary's chunk (`data-ru`, `data-en`): first-slide.js preloads the
      // player's language's beside the app's scripts (i18n/dictionaries.ts loads it).
      const dictionary = (lang: string) => {
        const chunk = Object.values(bundle).find((c) => c.type === 'chunk' && c.facadeModuleId?.endsWith(`/src/i18n/${lang}.json`));
        if (!chunk) throw new Error(`entry-via-first-slide: no chunk for src/i18n/${lang}.json`);
        return `/${chunk.fileName}`;
      };
      html = html.replace(
        tag,
        `<script src="/first-slide.js" data-entry="${entry}" data-preload="${preload.join(' ')}" data-ru="${dictionary('ru')}" data-en="${dictionary('en')}"></script>`,
      );
      writeFileSync(file, html);
    },
  };
}

// The mini app is served by the `fragbox` binary from `webapp/dist` on the same origin as
// `/api/v1`, so every path here is absolute from `/`. In `npm run dev` the API calls are
// proxied to a locally running `fragbox` (BIND_ADDR 127.0.0.1:8080 by default).
export default defineConfig({
  plugins: [react(), preloadStart(), entryViaFirstSlide(), precompress()],
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
    // One stylesheet for the whole app, linked from index.html (46 KB, 10 KB gzipped): a
    // screen's styles inserted when its chunk loads made the browser recompute the whole
    // page's style each time (a long task on a slow phone, several at start).
    cssCodeSplit: false,
    rolldownOptions: {
      // Screens reach a feature only through its entry (`features/<name>/index.ts`, re-exports).
      // A feature's modules have no import-time effects that matter without their exports (the
      // session store's `configureApiClient` runs whenever the store is used), so an entry pulls
      // into a screen's chunk only the modules whose exports it uses, as direct imports did.
      treeshake: {
        moduleSideEffects: [{ test: /[\\/]src[\\/]features[\\/].*\.tsx?$/, sideEffects: false }],
      },
      output: {
        // Two library chunks the entry evaluates one per task (src/main.tsx) and the shell's
        // shared modules, instead of many small chunks (each a request on the first open).
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'telegram', test: /node_modules[\\/](@telegram-apps[\\/]|valibot|better-promises|error-kid|mitt)/ },
            // The shell's own modules the start needs and the screens share: one chunk.
            // The start-up dictionaries (src/i18n/*.json) stay out: each is a chunk of its own, and
            // a player loads one (i18n/dictionaries.ts).
            { name: 'shell', test: /[\\/]src[\\/](i18n[\\/](?![^\\/]*\.json$)|lib[\\/]|components[\\/]|features[\\/](gates|session|settings)[\\/])|node_modules[\\/]zustand/ },
          ],
        },
      },
    },
  },
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    setupFiles: ['src/test/setup.ts'],
  },
});
