// `npm start`: the Electron app where Electron's binary is installed, else the headless web mode.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const require = createRequire(import.meta.url);

function electronBinary() {
  try {
    const path = require('electron');
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

const build = spawnSync(join(root, 'node_modules', '.bin', 'electron-vite'), ['build'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (build.status !== 0) process.exit(build.status ?? 1);

const electron = electronBinary();
const args = process.argv.slice(2);
const child = electron
  ? spawn(electron, [root, ...args], { stdio: 'inherit' })
  : (console.log(
      'Electron is not installed here (its binary download is disabled), so Reelsync starts in headless web mode.',
    ),
    spawn(process.execPath, [join(root, 'out', 'main', 'web.js'), ...args], { stdio: 'inherit' }));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
