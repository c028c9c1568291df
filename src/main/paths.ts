import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Per-user data folder (database, embedded service data), overridable with REELSYNC_DATA. */
export function defaultDataDir(): string {
  if (process.env.REELSYNC_DATA) return resolve(process.env.REELSYNC_DATA);
  const home = homedir();
  switch (process.platform) {
    case 'darwin':
      return join(home, 'Library', 'Application Support', 'Reelsync');
    case 'win32':
      return join(process.env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Reelsync');
    default:
      return join(process.env.XDG_DATA_HOME ?? join(home, '.local', 'share'), 'reelsync');
  }
}

/**
 * The folder holding Reelsync's package.json, found from this module whether it runs from src/, a bundle in out/ or
 * a packaged app (the root of app.asar: Electron's fs reads inside it).
 */
function findProjectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'reelsync') return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the Reelsync package root');
    dir = parent;
  }
}

export const projectRoot = findProjectRoot();
export const rendererBuildDir = join(projectRoot, 'out', 'renderer');

/**
 * A built Node entry in out/ (electron.vite.config.ts), e.g. `service/cli.js`. Code running from the sources (tests,
 * `npm run web`) uses the build as well: the renderer it serves is built the same way, and no TypeScript loader ever
 * runs the library service.
 */
export function builtEntry(outPath: string): string {
  return join(projectRoot, 'out', outPath);
}
