import { spawn, spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp';

const CLI = join(import.meta.dirname, '../../src/server/cli.ts');
const cli = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], { encoding: 'utf8' });

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(async () => cleanup());

describe('service command line', () => {
  it("key create prints only a key of the interface's kind", () => {
    const lib = cli(['key', 'create', '--data', dir, '--account', 'a', '--interface', 'library', '--credits', '5']);
    expect(lib.status).toBe(0);
    expect(lib.stdout).toMatch(/^rsl_[A-Za-z0-9_-]{32}\n$/);
    const lake = cli(['key', 'create', '--data', dir, '--account', 'a', '--interface', 'datalake']);
    expect(lake.stdout).toMatch(/^rsd_/);
    expect(cli(['key', 'create', '--data', dir, '--account', 'a', '--interface', 'ftp']).status).toBe(2);
    expect(cli(['credits', 'set', '--data', dir, '--account', 'a', '--usd', '-3']).status).toBe(2);
  });

  it('refuses an invalid config naming the key, with exit code 2', async () => {
    const config = join(dir, 'bad.json');
    await writeFile(config, JSON.stringify({ limits: { searchPerSecond: 'fast' } }));
    const res = cli(['serve', '--data', dir, '--config', config]);
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('limits.searchPerSecond');
    await writeFile(config, JSON.stringify({ limits: { uploadsPerHour: 3 } }));
    const unknown = cli(['serve', '--data', dir, '--config', config]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('uploadsPerHour');
    await writeFile(config, '{nope');
    expect(cli(['serve', '--data', dir, '--config', config]).status).toBe(2);
  });

  it('prints exactly "listening on http://HOST:PORT" and exits cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve', '--data', dir, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const line = await new Promise<string>((resolve) => {
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('\n')) resolve(out);
      });
    });
    expect(line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\n$/);
    child.kill('SIGTERM');
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
