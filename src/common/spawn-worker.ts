import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread on a module, TypeScript sources included. The service runs from its sources under tsx, and
 * on Node 20 `execArgv: ['--import', 'tsx']` does not reach a worker's module loader (checked: the worker fails with
 * ERR_UNKNOWN_FILE_EXTENSION), so a .ts entry is loaded by a one-line bootstrap through tsx's own API (`tsImport`).
 * A built .js/.mjs entry is started directly.
 */
export function spawnWorker(entry: URL, options: WorkerOptions = {}): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, options);
  // The ESM build of the API: its CommonJS build cannot find its own ESM half from inside an eval worker. Found from
  // tsx's package.json, since vitest's module runner has no import.meta.resolve.
  const tsxDir = dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const tsxApi = pathToFileURL(join(tsxDir, 'dist', 'esm', 'api', 'index.mjs')).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((tsx) => tsx.tsImport(${JSON.stringify(entry.href)}, ${JSON.stringify(entry.href)}));`;
  return new Worker(bootstrap, { ...options, eval: true });
}
