import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, waitForStatus } from '../helpers/api';
import type { TestService } from '../helpers/service';
import { useService } from '../helpers/use-service';
import { tempDir } from '../helpers/temp';
import { alive } from '../helpers/utility-process';
import { fixturePath } from '../fixtures/media';

const root = join(import.meta.dirname, '../..');
const NODE_DIRS = ['main', 'service', 'chunks'];

function builtFiles(): string[] {
  return NODE_DIRS.flatMap((d) =>
    readdirSync(join(root, 'out', d))
      .filter((f) => f.endsWith('.js'))
      .map((f) => join(root, 'out', d, f)),
  );
}

/** The code of a bundle without its comments (the bundler keeps `// src/...` region markers and doc comments). */
function codeOf(file: string): string {
  return readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('//'))
    .join('\n');
}

describe('built entries (out/)', () => {
  it('run no TypeScript loader and read nothing from src/: `rg "tsx|src/server" out/` finds nothing', () => {
    const everything = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? everything(join(dir, e.name)) : [join(dir, e.name)],
      );
    const files = everything(join(root, 'out')).filter((f) => /\.(js|cjs|mjs|html)$/.test(f));
    expect(files.length).toBeGreaterThan(10);
    const offenders = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => /tsx|src\/server|--import/.test(line))
        .map((line) => `${file}: ${line.trim().slice(0, 160)}`),
    );
    expect(offenders).toEqual([]);
  });

  it('import only Node built-ins and production dependencies (electron only in the Electron shell)', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const allowed = new Set(Object.keys(pkg.dependencies));
    const bare = new Map<string, string>();
    for (const file of builtFiles()) {
      const code = codeOf(file);
      const found = [
        ...code.matchAll(/^import\s[^;]*?\bfrom\s*["']([^"']+)["']/gm),
        ...code.matchAll(/^import\s*["']([^"']+)["']/gm),
        ...code.matchAll(/\b(?:import|[rR]equire)\(\s*["']([^"']+)["']\s*\)/g),
      ];
      for (const m of found) {
        const spec = m[1] ?? '';
        if (spec.startsWith('node:') || spec.startsWith('.')) continue;
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] ?? spec);
        bare.set(name, file);
      }
    }
    const notProduction = [...bare].filter(
      ([name, file]) => !allowed.has(name) && !(name === 'electron' && file.endsWith(join('main', 'index.js'))),
    );
    expect(notProduction).toEqual([]);
    expect(bare.size).toBeGreaterThan(5);
  });

  it('the reelsync and reelsync-service bins answer from the build', () => {
    const service = spawnSync(process.execPath, [join(root, 'bin', 'reelsync-service.js'), '--help'], {
      encoding: 'utf8',
    });
    expect(service.status).toBe(0);
    expect(service.stdout).toContain('key');
    const client = spawnSync(process.execPath, [join(root, 'bin', 'reelsync.js'), '--help'], { encoding: 'utf8' });
    expect(client.status).toBe(0);
    expect(client.stdout).toContain('sync');
  });

  it('the reelsync CLI starts its embedded service (forked, logging to <db folder>/logs), and leaves no process behind', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const run = () =>
        spawnSync(
          process.execPath,
          [join(root, 'bin', 'reelsync.js'), '--db', join(dir, 'c.db'), 'search', 'harbour'],
          { encoding: 'utf8' },
        );
      const first = run();
      expect(first.stderr).toBe('');
      expect(first.status).toBe(0);
      expect(first.stdout).toMatch(/no results/i);
      // The second run finds the key the first one created over the service's IPC channel.
      expect(run().status).toBe(0);
      const log = readFileSync(join(dir, 'logs', 'service.log'), 'utf8');
      const pids = [...log.matchAll(/\[supervisor\] ready at http:\/\/127\.0\.0\.1:\d+ \(pid (\d+)\)/g)].map((m) =>
        Number(m[1]),
      );
      expect(pids).toHaveLength(2);
      expect(pids.filter(alive)).toEqual([]);
    } finally {
      await cleanup();
    }
  });

  it('a SIGKILLed CLI leaves no service behind: the forked service exits when its parent is gone', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      mkdirSync(join(dir, 'footage'));
      const cli = spawn(
        process.execPath,
        [join(root, 'bin', 'reelsync.js'), '--db', join(dir, 'c.db'), 'sync', join(dir, 'footage')],
        { stdio: 'ignore' },
      );
      const logFile = join(dir, 'logs', 'service.log');
      const readyPid = (): number | null => {
        const m = existsSync(logFile) ? /ready at \S+ \(pid (\d+)\)/.exec(readFileSync(logFile, 'utf8')) : null;
        return m ? Number(m[1]) : null;
      };
      await expect.poll(readyPid, { timeout: 30_000, interval: 100 }).not.toBeNull();
      const servicePid = readyPid() ?? -1;
      expect(alive(servicePid)).toBe(true);
      const exited = new Promise<void>((r) => cli.once('exit', () => r()));
      cli.kill('SIGKILL');
      await exited;
      await expect.poll(() => alive(servicePid), { timeout: 20_000, interval: 100 }).toBe(false);
    } finally {
      await cleanup();
    }
  });

  describe('the built service indexes through its built analysis worker', () => {
    let service: TestService;
    const testService = useService();
    beforeAll(async () => {
      service = testService();
    });

    it('uploads and indexes a video (drawn text read by OCR in the analysis worker)', async () => {
      const api = apiClient(service.baseUrl, service.key);
      const up = await api.upload<{ videoNo: string }>(fixturePath('drawnTextMp4'));
      expect(up.json.code).toBe('0000');
      const videoNo = up.json.data?.videoNo ?? '';
      expect((await waitForStatus(api, videoNo, 120_000)).status).toBe('PARSE');
    });
  });
});
