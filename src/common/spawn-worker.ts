import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * The module a worker thread runs, found from its caller (`import.meta.url`):
 * - built (out/): every built file sits one folder below out/ (electron.vite.config.ts), so the built entry is
 *   `../<built>` from the caller wherever the bundler put it (an entry or a chunk), inside an asar archive too;
 * - from the sources (dev, tests: the caller is a .ts file): the TypeScript entry beside the caller.
 */
export function workerEntry(callerUrl: string, source: { sibling: string }, built: { outPath: string }): URL {
  const entry = callerUrl.endsWith('.ts')
    ? new URL(source.sibling, callerUrl)
    : new URL(`../${built.outPath}`, callerUrl);
  if (!existsSync(entry))
    throw new Error(`worker entry not found: ${fileURLToPath(entry)} (is the build in out/ complete?)`);
  return entry;
}

/**
 * Starts a worker thread on a module. A built .js entry starts directly. A .ts entry (only when running from the
 * sources: the build never produces one) goes through the development bootstrap beside this file, which loads it
 * with the TypeScript loader the sources run under; that bootstrap is not part of the build, so nothing in out/ can
 * reach it.
 */
export function spawnWorker(entry: URL, options: WorkerOptions = {}): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, options);
  const bootstrap = new URL(import.meta.url);
  bootstrap.pathname = bootstrap.pathname.replace(/[^/]+$/, 'source-worker.dev.mjs');
  const code = `import(${JSON.stringify(bootstrap.href)}).then((m) => m.runSourceWorker(${JSON.stringify(entry.href)}));`;
  return new Worker(code, { ...options, eval: true });
}
