import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgSql } from '../../src/server/storage/pg-sql';
import { skipPostgresTests, startPostgres, type TestPostgres } from '../helpers/postgres';
import { datalakeClient } from '../helpers/datalake';
import { SERVICE_CLI, spawnServe } from '../helpers/service';
import { tempDir } from '../helpers/temp';

const cli = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [SERVICE_CLI, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir('reelsync-roles-')));
afterAll(async () => cleanup());

describe('service roles and the database setting', () => {
  it('refuses --role api|worker without a shared database, and an unknown role, with exit code 2', () => {
    for (const role of ['api', 'worker']) {
      const res = cli(['serve', '--data', join(dir, 'lite'), '--role', role]);
      expect(res.status).toBe(2);
      expect(res.stderr).toContain(`--role ${role} needs a database every process shares: set database.url`);
    }
    expect(cli(['serve', '--data', join(dir, 'lite'), '--role', 'cron']).status).toBe(2);
  });

  it('refuses a key command with neither --data nor database.url, and a bad REELSYNC_DATABASE_URL', () => {
    const none = cli(['key', 'create', '--account', 'a', '--interface', 'library']);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('--data is required unless the config sets database.url');
    const bad = cli(['key', 'create', '--account', 'a', '--interface', 'library'], {
      REELSYNC_DATABASE_URL: 'mysql://root:hunter2@h/d',
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('invalid REELSYNC_DATABASE_URL');
    expect(bad.stderr).not.toContain('hunter2');
  });

  it('stops with exit 1 naming host:port, never the password, when PostgreSQL cannot be reached', () => {
    const res = cli(['serve', '--data', join(dir, 'unreachable'), '--role', 'worker'], {
      REELSYNC_DATABASE_URL: 'postgres://team:hunter2@127.0.0.1:1/reelsync',
    });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('127.0.0.1:1');
    expect(res.stderr).not.toContain('hunter2');
  });
});

describe.skipIf(skipPostgresTests)('service roles on PostgreSQL', () => {
  let pg: TestPostgres;
  let url: string;
  let configFile: string;
  let admin: PgSql;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    pg = await startPostgres();
    url = await pg.createDatabase();
    configFile = join(dir, 'team.json');
    await writeFile(configFile, JSON.stringify({ database: { url } }));
    admin = new PgSql(url, { max: 1 });
  }, 60_000);
  afterAll(async () => {
    await admin?.close();
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await pg?.stop();
  });

  it('key create, credits set and webhook-secret use the config database, or REELSYNC_DATABASE_URL', () => {
    const key = cli(['key', 'create', '--config', configFile, '--account', 'team', '--interface', 'library']);
    expect(key.status).toBe(0);
    expect(key.stdout).toMatch(/^rsl_[A-Za-z0-9_-]{32}\n$/);
    const fromEnv = cli(['key', 'create', '--account', 'team', '--interface', 'datalake', '--credits', '7'], {
      REELSYNC_DATABASE_URL: url,
    });
    expect(fromEnv.status).toBe(0);
    expect(fromEnv.stdout).toMatch(/^rsd_/);
    expect(cli(['credits', 'set', '--config', configFile, '--account', 'team', '--usd', '3']).status).toBe(0);
    const secret = cli(['webhook-secret', '--config', configFile, '--account', 'team']);
    expect(secret.status).toBe(0);
    expect(secret.stdout).toMatch(/^whsec_/);
    expect(cli(['webhook-secret', '--config', configFile, '--account', 'nobody']).status).toBe(1);
  });

  it('a worker prints "worker ready", opens no search connections and stops on SIGTERM; an api replica answers the balance a CLI set', async () => {
    const key = cli(['key', 'create', '--config', configFile, '--account', 'api', '--interface', 'datalake']).stdout;
    expect(cli(['credits', 'set', '--config', configFile, '--account', 'api', '--usd', '2.5']).status).toBe(0);
    const worker = spawn(
      process.execPath,
      [SERVICE_CLI, 'serve', '--data', join(dir, 'worker-data'), '--config', configFile, '--role', 'worker'],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, REELSYNC_LOG: 'warn' } },
    );
    children.push(worker);
    let out = '';
    await new Promise<void>((resolve, reject) => {
      worker.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('\n')) resolve();
      });
      worker.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
    });
    expect(out).toBe('worker ready\n');

    const api = await spawnServe(join(dir, 'api-data'), 0, configFile, undefined, {}, ['--role', 'api']);
    children.push(api.child);
    const balance = await datalakeClient(api.origin, key.trim()).get<{ balance_micro_usd: number }>('/usage/balance');
    expect(balance.json.balance_micro_usd).toBe(2_500_000);

    // The api replica's search threads hold their connections from the start; a worker answers no searches and opens
    // none (it started first, so its threads, had it any, would have connected before the replica's).
    const searchConnections = (pid: number | undefined) =>
      admin.get(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = ?',
        `reelsync search ${pid ?? -1}`,
      ) as Promise<{ n: number }>;
    await expect.poll(async () => (await searchConnections(api.child.pid)).n, { timeout: 15_000 }).toBe(2);
    expect((await searchConnections(worker.pid)).n).toBe(0);
    worker.kill('SIGTERM');
    expect(await new Promise((r) => worker.once('exit', (code) => r(code)))).toBe(0);
    api.child.kill('SIGTERM');
    expect(await new Promise((r) => api.child.once('exit', (code) => r(code)))).toBe(0);
  }, 60_000);
});
