// Development only: loads a TypeScript worker entry through tsx, for code running from src/ (npm run service, tests).
// On Node 20 `execArgv: ['--import', 'tsx']` does not reach a worker's module loader (checked: the worker fails with
// ERR_UNKNOWN_FILE_EXTENSION), so the entry goes through tsx's own API. The built app never loads this file: its
// workers are built .js entries (see spawn-worker.ts).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

export async function runSourceWorker(entryHref) {
  // The ESM build of the API: its CommonJS build cannot find its own ESM half from inside an eval worker.
  const tsxDir = dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const tsx = await import(pathToFileURL(join(tsxDir, 'dist', 'esm', 'api', 'index.mjs')).href);
  return tsx.tsImport(entryHref, entryHref);
}
