import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { API_BASE_PATH } from '../../src/shared/api-types';
import { openPgSql } from '../../src/server/storage/open-pg-sql';
import type { Sql } from '../../src/server/storage/sql';
import { SqliteSql } from '../../src/server/storage/sqlite-sql';
import { openServiceDb } from '../../src/server/storage/db';
import { skipPostgresTests, startPostgres, type TestPostgres } from './postgres';
import { startS3Server, type TestS3Server } from './s3-server';
import { tempDir } from './temp';

/**
 * A test service's backends: `local`, the embedded default (SQLite and blobs in the data folder); `team`, PostgreSQL
 * (test/helpers/postgres.ts, a server of its own) and S3 (a bucket of its own s3rver, test/helpers/s3-server.ts);
 * `s3`, SQLite with S3 blobs (the upload benchmark).
 */
export type BlobBackend = 'local' | 's3' | 'team';
/** Both, for `describe.each(BLOB_BACKENDS)` over a suite that must hold on either (team only where PostgreSQL is). */
export const BLOB_BACKENDS: readonly BlobBackend[] = skipPostgresTests ? ['local'] : ['local', 'team'];

/** The built service (test/global-setup.ts builds out/ when the sources are newer): what every form of the app runs. */
export const SERVICE_CLI = join(import.meta.dirname, '../../out/service/cli.js');

export interface TestService {
  /** Base URL of interface A: http://127.0.0.1:PORT/serve/api/v1 */
  baseUrl: string;
  origin: string;
  key: string;
  dataDir: string;
  /** The --config file the service runs with (names the database and S3 on 'team'): for CLI commands on its database. */
  configFile: string;
  backend: BlobBackend;
  /** The S3 server holding the blobs when backend is 'team' or 's3'. */
  s3?: TestS3Server;
  /** The service's database from the test's side (a connection of its own), for reading what the service wrote. */
  withSql<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  /** Process id of the running service (changes on restart). */
  readonly pid: number;
  /** Creates another account's key in the same service. */
  createKey(account: string, options?: { credits?: number; kind?: 'library' | 'datalake' }): string;
  setCredits(account: string, usd: number): void;
  stop(): Promise<void>;
  /** SIGKILL, no cleanup: for crash tests. */
  kill(): Promise<void>;
  /** Starts the service again on the same data folder and port. */
  restart(): Promise<void>;
}

/** Runs the service's command line (key, credits...) and returns its output. */
export function cliSync(args: string[]): string {
  const res = spawnSync(process.execPath, [SERVICE_CLI, ...args], { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`service cli ${args.join(' ')} failed: ${res.stderr}`);
  return res.stdout.trim();
}

/** `serve` on a data folder and port (0: any), resolved with the origin it prints once listening ('' for a worker), and its stderr so far. */
export async function spawnServe(
  dataDir: string,
  port: number,
  configFile: string,
  host?: string,
  env: Record<string, string> = {},
  extraArgs: string[] = [],
): Promise<{ child: ChildProcess; origin: string; stderr(): string }> {
  const hostArgs = host === undefined ? [] : ['--host', host];
  const child = spawn(
    process.execPath,
    [
      SERVICE_CLI,
      'serve',
      '--data',
      dataDir,
      '--port',
      String(port),
      '--config',
      configFile,
      ...hostArgs,
      ...extraArgs,
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, REELSYNC_LOG: process.env.REELSYNC_LOG ?? 'warn', ...env },
    },
  );
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString()).slice(-20_000);
    if (process.env.REELSYNC_TEST_SERVICE_LOG) process.stderr.write(c);
  });
  const origin = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      // A worker (--role worker) listens on nothing: its origin is ''.
      const m = /listening on (http:\/\/\S+)|worker ready/.exec(out);
      if (m) resolve(m[1] ?? '');
    });
    child.once('exit', (code) => reject(new Error(`service exited with ${code}: ${stderr}`)));
  });
  return { child, origin, stderr: () => stderr };
}

/** The real library service as a child process on 127.0.0.1, in a throwaway data folder, with one funded account. */
export async function startService(
  opts: { config?: object; credits?: number; backend?: BlobBackend } = {},
): Promise<TestService> {
  const { dir, cleanup: removeDir } = await tempDir('reelsync-service-');
  const backend = opts.backend ?? 'local';
  let s3: TestS3Server | undefined;
  let pg: TestPostgres | undefined;
  const cleanup = async (): Promise<void> => {
    await s3?.stop();
    await pg?.stop();
    await removeDir();
  };
  const configFile = join(dir, 'config.json');
  const dataDir = join(dir, 'data');
  let databaseUrl: string | undefined;
  try {
    if (backend !== 'local') s3 = await startS3Server();
    if (backend === 'team') {
      pg = await startPostgres();
      databaseUrl = await pg.createDatabase();
    }
  } catch (err) {
    await cleanup();
    throw err;
  }
  const env = s3?.env ?? {};
  const config = {
    ...opts.config,
    ...(databaseUrl ? { database: { url: databaseUrl } } : {}),
    ...(s3 ? { storage: { s3: s3.config } } : {}),
  };
  await writeFile(configFile, JSON.stringify(config));
  // The database the config names (PostgreSQL) or the data folder's.
  const where = ['--data', dataDir, '--config', configFile];
  const key = cliSync([
    'key',
    'create',
    ...where,
    '--account',
    'test',
    '--interface',
    'library',
    '--credits',
    String(opts.credits ?? 100),
  ]);
  const first = await spawnServe(dataDir, 0, configFile, undefined, env).catch(async (err: unknown) => {
    await cleanup();
    throw err;
  });
  const origin = first.origin;
  let child = first.child;
  const port = Number(new URL(origin).port);
  const exited = (c: ChildProcess) =>
    new Promise<void>((r) => (c.exitCode !== null || c.signalCode !== null ? r() : c.once('exit', () => r())));
  const service: TestService = {
    baseUrl: `${origin}${API_BASE_PATH}`,
    origin,
    key,
    dataDir,
    configFile,
    backend,
    s3,
    withSql: async (fn) => {
      if (databaseUrl) {
        const sql = await openPgSql(databaseUrl, { max: 2 });
        try {
          return await fn(sql);
        } finally {
          await sql.close();
        }
      }
      const db = openServiceDb(dataDir);
      try {
        return await fn(new SqliteSql(db));
      } finally {
        db.close();
      }
    },
    get pid() {
      return child.pid ?? -1;
    },
    createKey: (account, o = {}) =>
      cliSync([
        'key',
        'create',
        ...where,
        '--account',
        account,
        '--interface',
        o.kind ?? 'library',
        ...(o.credits !== undefined ? ['--credits', String(o.credits)] : []),
      ]),
    setCredits: (account, usd) =>
      void cliSync(['credits', 'set', ...where, '--account', account, '--usd', String(usd)]),
    stop: async () => {
      child.kill('SIGTERM');
      await exited(child);
      await cleanup();
    },
    kill: async () => {
      child.kill('SIGKILL');
      await exited(child);
    },
    restart: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited(child);
      }
      ({ child } = await spawnServe(dataDir, port, configFile, undefined, env));
    },
  };
  return service;
}
