// Packaging the app here, offline, without touching the real checkout: a scratch copy of the project (node_modules
// hard-linked), a local folder shaped like an unpacked Electron release, and electron-builder's `--linux dir`.
import { execFile } from 'node:child_process';
import { chmod, copyFile, cp, mkdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';

const run = promisify(execFile);
export const projectRoot = join(import.meta.dirname, '..', '..');

/** What a fresh checkout holds that building and packaging read (no out/, dist/, .cache/ or test/). */
const PROJECT_FILES = [
  'package.json',
  'package-lock.json',
  'electron.vite.config.ts',
  'tsconfig.json',
  'tsconfig.base.json',
  'tsconfig.node.json',
  'tsconfig.web.json',
  'src',
  'bin',
  'build',
];

/** Runs a command in a folder and returns its stdout; its output is kept for the error when it fails. */
export async function runIn(
  cwd: string,
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  timeout = 180_000,
): Promise<string> {
  try {
    const { stdout } = await run(file, args, { cwd, env, timeout, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${file} ${args.join(' ')} failed in ${cwd}: ${e.message}\n${(e.stdout ?? '').slice(-4000)}\n${(e.stderr ?? '').slice(-4000)}`,
    );
  }
}

/**
 * A scratch copy of the project in `dir`: sources and configuration copied, node_modules hard-linked (cp -al: seconds,
 * no disk). Files npm rewrites in place (the hidden lockfile) are real copies, and removing a package in the copy only
 * unlinks its names there, so nothing done in the scratch copy reaches the real node_modules.
 */
export async function stageProject(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const entry of PROJECT_FILES) await cp(join(projectRoot, entry), join(dir, entry), { recursive: true });
  const modules = await realpath(join(projectRoot, 'node_modules'));
  await run('cp', ['-al', modules, join(dir, 'node_modules')]);
  const hidden = join(dir, 'node_modules', '.package-lock.json');
  await rm(hidden, { force: true });
  await copyFile(join(modules, '.package-lock.json'), hidden);
}

/** The Electron version the project builds against (node_modules/electron, a devDependency). */
export async function electronVersion(): Promise<string> {
  const pkg = z
    .object({ version: z.string() })
    .parse(JSON.parse(await readFile(join(projectRoot, 'node_modules', 'electron', 'package.json'), 'utf8')));
  return pkg.version;
}

/**
 * A folder shaped like an unpacked Electron release for Linux: the `electron` executable (electron-builder renames it to
 * the app's executableName), `resources/` without default_app.asar (with it the asar integrity step fails), `locales/`
 * and `version`. The executable is a shell script: this is about the layout electron-builder produces, not Chromium.
 */
export async function makeElectronStub(dir: string, version: string): Promise<void> {
  await mkdir(join(dir, 'resources'), { recursive: true });
  await mkdir(join(dir, 'locales'), { recursive: true });
  await writeFile(join(dir, 'locales', 'en-US.pak'), '');
  await writeFile(join(dir, 'version'), version);
  await writeFile(
    join(dir, 'electron'),
    '#!/bin/sh\necho "Electron stub: the packaged-layout test never runs Chromium" >&2\nexit 1\n',
  );
  await chmod(join(dir, 'electron'), 0o755);
}

export interface PackOptions {
  stage: string;
  electronDist: string;
  electronVersion: string;
  outDir: string;
  /** Extra environment for the packaging configuration (e.g. REELSYNC_UPDATE_URL). */
  env?: Record<string, string>;
}

/**
 * `npm run dist:dir` for Linux in the scratch copy, the way a release machine runs it but offline: the local Electron
 * folder, the version given, and never a native rebuild (it would delete better-sqlite3's build and then fail to fetch
 * Electron's headers). Signing credentials are cleared so the result does not depend on the caller's environment.
 */
export async function packLinuxDir(opts: PackOptions): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, REELSYNC_NPM_REBUILD: 'false', ...opts.env };
  for (const name of ['CSC_LINK', 'CSC_NAME', 'WIN_CSC_LINK', 'GH_TOKEN', 'GITHUB_TOKEN']) delete env[name];
  const cli = join(opts.stage, 'node_modules', 'electron-builder', 'cli.js');
  await runIn(
    opts.stage,
    process.execPath,
    [
      cli,
      '--linux',
      'dir',
      '--config',
      'build/electron-builder.config.ts',
      '--publish',
      'never',
      `-c.electronDist=${opts.electronDist}`,
      `-c.electronVersion=${opts.electronVersion}`,
      '-c.npmRebuild=false',
      `-c.directories.output=${opts.outDir}`,
    ],
    env,
  );
  return join(opts.outDir, 'linux-unpacked');
}
