import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ensureCameraOriginals } from './fixtures/camera-originals';
import { ensureMedia } from './fixtures/media';

const root = join(import.meta.dirname, '..');

function newestMtime(path: string): number {
  if (!statSync(path).isDirectory()) return statSync(path).mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** What the tests run from out/: the renderer (browser tests), the preload, the embedded service and its workers, the CLIs. */
const BUILT = [
  'renderer/index.html',
  'preload/index.cjs',
  'main/cli.js',
  'main/web.js',
  'main/download-worker.js',
  'service/cli.js',
  'service/analysis-worker.js',
  'service/scene-text-worker.js',
  'service/nsfw-worker.js',
  'service/staged-hash-worker.js',
];

/** Builds the app when any built entry is missing or older than the sources. */
function ensureBuild(): void {
  const sources = Math.max(
    ...['src', 'electron.vite.config.ts', 'package.json'].map((p) => newestMtime(join(root, p))),
  );
  const fresh = BUILT.map((p) => join(root, 'out', p)).every((f) => existsSync(f) && statSync(f).mtimeMs >= sources);
  if (fresh) return;
  execFileSync(join(root, 'node_modules', '.bin', 'electron-vite'), ['build'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

export default async function setup(): Promise<void> {
  ensureBuild();
  await ensureMedia();
  await ensureCameraOriginals();
}
