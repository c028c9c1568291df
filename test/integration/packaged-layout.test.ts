// The packaged app, built here the way `npm run dist:dir` builds it on a release machine (offline: a local Electron
// folder, no native rebuild), checked for what it ships. One packaging build is shared by every check in this file.
import { existsSync } from 'node:fs';
import { access, constants, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { extractFile } from '@electron/asar';
import { asarFiles, packageSizes, sizeTable, type AsarFile } from '../../scripts/package-sizes';
import { electronVersion, makeElectronStub, packLinuxDir, runIn, stageProject } from '../helpers/packaging';
import { tempDir } from '../helpers/temp';

const UPDATE_URL = 'https://updates.reelsync.test/desktop';
const MIB = 1024 * 1024;

let cleanup: () => Promise<void>;
let stage: string;
let appDir: string;
let files: AsarFile[];

beforeAll(async () => {
  const tmp = await tempDir('reelsync-packaged-');
  cleanup = tmp.cleanup;
  stage = join(tmp.dir, 'project');
  await stageProject(stage);
  await runIn(stage, join(stage, 'node_modules', '.bin', 'electron-vite'), ['build']);
  const electronDist = join(tmp.dir, 'electron-dist');
  const version = await electronVersion();
  await makeElectronStub(electronDist, version);
  appDir = await packLinuxDir({ stage, electronDist, electronVersion: version, outDir: join(tmp.dir, 'dist'), env: { REELSYNC_UPDATE_URL: UPDATE_URL } });
  files = asarFiles(join(appDir, 'resources', 'app.asar'));
}, 300_000);

afterAll(async () => cleanup?.());

const Lockfile = z.object({ packages: z.record(z.string(), z.object({ version: z.string().optional(), dev: z.boolean().optional() })) });

/** name@version of every package the lockfile installs, split into production (reached from dependencies) and dev-only. */
async function lockedPackages(): Promise<{ production: Set<string>; devOnly: Set<string> }> {
  const lock = Lockfile.parse(JSON.parse(await readFile(join(stage, 'package-lock.json'), 'utf8')));
  const production = new Set<string>();
  const devOnly = new Set<string>();
  for (const [path, entry] of Object.entries(lock.packages)) {
    const name = path.split('node_modules/').pop();
    if (!path || !name || !entry.version) continue;
    (entry.dev === true ? devOnly : production).add(`${name}@${entry.version}`);
  }
  return { production, devOnly };
}

/** name@version of every package inside app.asar (electron-builder may hoist a nested package, so paths differ). */
function shippedPackages(): string[] {
  const asar = join(appDir, 'resources', 'app.asar');
  return files
    .flatMap((f) => {
      const name = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\/package\.json$/.exec(f.path)?.[1];
      if (!name) return [];
      const pkg = z.object({ version: z.string() }).parse(JSON.parse(extractFile(asar, f.path).toString('utf8')));
      return [`${name}@${pkg.version}`];
    });
}

describe('the packaged Linux app (electron-builder --linux dir)', () => {
  it('has the layout of an Electron app named reelsync, with the update feed configured', async () => {
    await access(join(appDir, 'reelsync'), constants.X_OK);
    expect(existsSync(join(appDir, 'electron'))).toBe(false);
    expect(existsSync(join(appDir, 'locales'))).toBe(true);
    expect(existsSync(join(appDir, 'resources', 'default_app.asar'))).toBe(false);
    const feed = await readFile(join(appDir, 'resources', 'app-update.yml'), 'utf8');
    expect(feed).toContain('provider: generic');
    expect(feed).toContain(`url: ${UPDATE_URL}`);
  });

  it('ships the built app and production dependencies only: no sources, tests or devDependencies', async () => {
    const paths = files.map((f) => f.path);
    expect(paths).toContain('package.json');
    expect(paths).toContain('out/main/index.js');
    expect(paths).toContain('out/preload/index.cjs');
    expect(paths).toContain('out/renderer/index.html');
    expect(paths.filter((p) => /^(src|test|bench|bin|build|scripts|dist|\.cache)\//.test(p))).toEqual([]);
    // core-js/modules/es.regexp.test.js is not a test: it is the RegExp#test polyfill.
    const testLike = (p: string) => /\.(test|spec)\.[cm]?[jt]sx?$/.test(p) && !p.startsWith('node_modules/core-js/modules/');
    expect(paths.filter((p) => testLike(p) || /\.(map|ts|tsx)$/.test(p))).toEqual([]);
    const { production, devOnly } = await lockedPackages();
    for (const name of ['react', 'react-dom', 'lucide-react', 'electron', 'tsx', 'vite']) expect([...devOnly].some((p) => p.startsWith(`${name}@`)), name).toBe(true);
    const shipped = shippedPackages();
    expect(shipped.filter((p) => !production.has(p))).toEqual([]);
    for (const name of ['fastify', 'better-sqlite3', 'zod', 'electron-updater']) expect(shipped.some((p) => p.startsWith(`${name}@`)), name).toBe(true);
    for (const name of ['react', 'react-dom', 'lucide-react', 'electron', 'tsx', 'vite']) expect(shipped.some((p) => p.startsWith(`${name}@`)), name).toBe(false);
  });

  it('unpacks what runs or is read from disk: native addons, exiftool, tesseract, models', () => {
    const natives = files.filter((f) => f.path.endsWith('.node'));
    expect(natives.map((f) => f.path)).toContain('node_modules/better-sqlite3/build/Release/better_sqlite3.node');
    for (const f of natives) {
      expect(f.unpacked, f.path).toBe(true);
      expect(existsSync(join(appDir, 'resources', 'app.asar.unpacked', f.path)), f.path).toBe(true);
    }
    const unpacked = (prefix: string) => files.filter((f) => f.path.startsWith(prefix)).every((f) => f.unpacked);
    expect(unpacked('node_modules/exiftool-vendored.pl/bin/exiftool')).toBe(true);
    expect(unpacked('node_modules/@tesseract.js-data/eng/')).toBe(true);
    expect(unpacked('node_modules/@vladmandic/human/models/')).toBe(true);
    // better-sqlite3 ships its addon and JavaScript, not its sources and build tree.
    expect(files.filter((f) => f.path.startsWith('node_modules/better-sqlite3/') && !/^node_modules\/better-sqlite3\/(lib\/|package\.json$|LICENSE$|build\/Release\/better_sqlite3\.node$)/.test(f.path))).toEqual([]);
  });

  it('stays under 300 MiB (app.asar + app.asar.unpacked)', () => {
    const sizes = packageSizes(files);
    const total = sizes.reduce((n, s) => n + s.packed + s.unpacked, 0);
    console.log(`packaged app, largest packages:\n${sizeTable(sizes, 12)}`);
    expect(total / MIB).toBeLessThan(300);
  });
});
