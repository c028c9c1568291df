import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { resolve } from 'node:path';

/**
 * Every Node entry is built in one pass into out/: the Electron main process and the client (out/main/...), the
 * library service and its worker threads (out/service/...), with their shared code in out/chunks/. Each built file
 * thus sits one folder below out/, so a module finds a worker entry at `../<dir>/<entry>.js` from wherever the bundler
 * put it (`workerEntry` in src/common/spawn-worker.ts). Nothing here runs TypeScript at run time; dependencies stay external and are
 * loaded from node_modules (or the packaged app's).
 */
const nodeEntries = {
  'main/index': 'src/main/shell/index.ts',
  'main/web': 'src/main/web.ts',
  'main/cli': 'src/main/cli.ts',
  // Started as a worker thread by src/main/api/download-thread.ts.
  'main/download-worker': 'src/main/api/download-worker.ts',
  'service/cli': 'src/server/cli.ts',
  // Started as a worker thread by src/server/indexer/worker/analysis-host.ts.
  'service/analysis-worker': 'src/server/indexer/worker/analysis-worker.ts',
  // Started as a worker thread by src/server/indexer/worker/scene-text-thread.ts (OCR on a core of its own).
  'service/scene-text-worker': 'src/server/indexer/worker/scene-text-worker.ts',
  // Started as a worker thread by src/server/indexer/worker/nsfw-thread.ts (the drawing classifier on a core of its own).
  'service/nsfw-worker': 'src/server/indexer/worker/nsfw-worker.ts',
  // Started as a worker thread by src/server/http/staged-hash/staged-file-hash.ts (uploads' SHA-256 on a core of its own).
  'service/staged-hash-worker': 'src/server/http/staged-hash/staged-hash-worker.ts',
  // Started as worker threads by src/server/search/workers/search-pool.ts, pg/pg-search-pool.ts and
  // photo/face-query-pool.ts.
  'service/search-worker': 'src/server/search/sqlite/search-worker.ts',
  'service/pg-search-worker': 'src/server/search/pg/pg-search-worker.ts',
  'service/face-query-worker': 'src/server/search/photo/face-query-worker.ts',
};

/**
 * No doc comments and no `// src/...` module markers in the bundles (licence comments stay): nothing in out/ names the
 * sources it was built from, so `rg "tsx|src/server" out/` shows at a glance that the built app never reaches into
 * src/ or a TypeScript loader.
 */
const KEEP_LEGAL_COMMENTS = { legal: true, annotation: true, jsdoc: false };
const NO_MODULE_MARKERS = { attachDebugInfo: 'none' } as const;

export default defineConfig({
  main: {
    build: {
      outDir: 'out',
      // The preload and renderer builds below fill out/preload and out/renderer again in the same run.
      emptyOutDir: true,
      // The built client and service also run on plain Node (web mode, `reelsync`, `reelsync-service`).
      target: 'node20',
      rollupOptions: {
        input: Object.fromEntries(Object.entries(nodeEntries).map(([name, file]) => [name, resolve(file)])),
        output: {
          entryFileNames: '[name].js',
          chunkFileNames: 'chunks/[name]-[hash].js',
          comments: KEEP_LEGAL_COMMENTS,
        },
        experimental: NO_MODULE_MARKERS,
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload can require nothing but electron: bundle zod and the contract into it.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        // A sandboxed preload must be CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    plugins: [react()],
    build: {
      outDir: 'out/renderer',
      rollupOptions: {
        input: { index: resolve('src/renderer/index.html') },
        output: { comments: KEEP_LEGAL_COMMENTS },
        experimental: NO_MODULE_MARKERS,
      },
    },
  },
});
