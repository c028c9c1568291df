#!/usr/bin/env node
// Launcher for the `reelsync` command: runs the TypeScript command line through tsx's loader, passing its exit code on.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src', 'main', 'cli.ts'), ...process.argv.slice(2)], { stdio: 'inherit' });
// Ctrl-C reaches the child through the terminal's process group; the launcher just waits for it to finish.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
