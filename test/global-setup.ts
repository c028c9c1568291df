import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ensureMedia } from './fixtures/media';

const root = join(import.meta.dirname, '..');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds the app when the build is missing or older than its sources (browser tests load it). */
function ensureBuild(): void {
  const built = join(root, 'out', 'renderer', 'index.html');
  const preload = join(root, 'out', 'preload', 'index.cjs');
  const sources = Math.max(...['src/renderer', 'src/shared', 'src/preload'].map((d) => newestMtime(join(root, d))));
  if (existsSync(built) && existsSync(preload) && statSync(built).mtimeMs >= sources && statSync(preload).mtimeMs >= sources) return;
  execFileSync(join(root, 'node_modules', '.bin', 'electron-vite'), ['build'], { cwd: root, stdio: 'ignore' });
}

export default async function setup(): Promise<void> {
  ensureBuild();
  await ensureMedia();
}
