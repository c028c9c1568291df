import type { ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { API_BASE_PATH } from '../../src/shared/api-types';
import { openPgSql } from '../../src/server/storage/open-pg-sql';
import type { PgSql } from '../../src/server/storage/pg-sql';
import { parsedRows } from '../../src/server/storage/rows';
import type { SqlParam } from '../../src/server/storage/sql';
import { startPostgres, type TestPostgres } from './postgres';
import { startS3Server, type TestS3Server } from './s3-server';
import { cliSync, spawnServe } from './service';
import { tempDir } from './temp';

/** One `serve --role api|worker` process of a team cluster: its own data folder (tmp/ only), the shared database. */
export interface TeamProcess {
  role: 'api' | 'worker';
  /** api-1, worker-2 ... */
  name: string;
  readonly pid: number;
  /** Interface A's base URL (http://127.0.0.1:PORT/serve/api/v1); api processes only. */
  baseUrl: string;
  /** SIGTERM and wait (drains). */
  stop(): Promise<void>;
  /** SIGKILL, no cleanup: its leases stay until they pass. */
  kill(): Promise<void>;
  /** Its stderr so far (the last 20 kB). */
  stderr(): string;
}

export interface TeamCluster {
  pg: TestPostgres;
  databaseUrl: string;
  s3: TestS3Server;
  apis: TeamProcess[];
  /** The workers started so far (stopped ones stay listed). */
  workers: TeamProcess[];
  /** Starts one more `serve --role worker`, resolved once it is ready. */
  addWorker(): Promise<TeamProcess>;
  /** A library key of the funded account `test`. */
  key: string;
  /** Creates another account's key in the shared database. */
  createKey(account: string, credits?: number): string;
  /** Rows of a query on the shared database, parsed by `schema`. */
  rows<T>(schema: z.ZodType<T>, text: string, ...params: SqlParam[]): Promise<T[]>;
  /** The worker holding the lease of the running job of `kind` for `ref` (a video's number), if one does. */
  jobHolder(kind: string, ref: string): Promise<TeamProcess | undefined>;
  stop(): Promise<void>;
}

/** How long stop() waits for a process to drain before killing it. */
const STOP_WAIT_MS = 10_000;

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => child.once('exit', () => r()));
}

/** `serve --role ROLE`, resolved once it prints its ready line. */
async function spawnRole(
  role: 'api' | 'worker',
  name: string,
  dataDir: string,
  configFile: string,
  env: Record<string, string>,
): Promise<TeamProcess> {
  const served = await spawnServe(dataDir, 0, configFile, undefined, env, ['--role', role]);
  const { child, origin } = served;
  return {
    role,
    name,
    get pid() {
      return child.pid ?? -1;
    },
    baseUrl: origin ? `${origin}${API_BASE_PATH}` : '',
    stop: async () => {
      child.kill('SIGTERM');
      // A worker drains its running job first; past this the test does not wait for it.
      const drained = await Promise.race([exited(child).then(() => true), sleep(STOP_WAIT_MS).then(() => false)]);
      if (!drained) {
        child.kill('SIGKILL');
        await exited(child);
      }
    },
    kill: async () => {
      child.kill('SIGKILL');
      await exited(child);
    },
    stderr: () => served.stderr(),
  };
}

/**
 * The team server as it is deployed: one PostgreSQL database, one S3 server (s3rver), `apis` processes of
 * `serve --role api` and `workers` of `serve --role worker` (the built CLI, real child processes), all on one config
 * file, and a funded library account. `config` is merged over the database and storage settings.
 */
export async function startTeamCluster(opts: {
  apis: number;
  workers: number;
  config?: Record<string, unknown>;
  credits?: number;
  /** More environment for every process (e.g. REELSYNC_LOG). */
  env?: Record<string, string>;
  /** The endpoint the processes reach the S3 server by (e.g. a throttling proxy in front of it); its own by default. */
  storeEndpoint?: (s3: TestS3Server) => Promise<string>;
}): Promise<TeamCluster> {
  const { dir, cleanup: removeDir } = await tempDir('reelsync-team-');
  /** Every process started, for stop(). */
  const started: TeamProcess[] = [];
  let postgres: TestPostgres | undefined;
  let s3: TestS3Server | undefined;
  let sql: PgSql | undefined;
  const stop = async (): Promise<void> => {
    await Promise.all(started.map((p) => p.stop()));
    await sql?.close();
    await s3?.stop();
    await postgres?.stop();
    await removeDir();
  };
  try {
    postgres = await startPostgres();
    s3 = await startS3Server();
    const databaseUrl = await postgres.createDatabase();
    const configFile = join(dir, 'config.json');
    await writeFile(
      configFile,
      JSON.stringify({
        ...opts.config,
        database: { url: databaseUrl },
        storage: { s3: { ...s3.config, endpoint: opts.storeEndpoint ? await opts.storeEndpoint(s3) : s3.endpoint } },
      }),
    );
    const env = { ...s3.env, ...opts.env };
    const keyFor = (account: string, credits?: number): string =>
      cliSync([
        ...['key', 'create', '--config', configFile, '--account', account, '--interface', 'library'],
        ...(credits === undefined ? [] : ['--credits', String(credits)]),
      ]);
    const spawned = { api: 0, worker: 0 };
    // Each process its own data folder: a process empties its tmp/ at start.
    const spawnNext = (role: 'api' | 'worker'): Promise<TeamProcess> => {
      const name = `${role}-${++spawned[role]}`;
      return spawnRole(role, name, join(dir, name), configFile, env).then((p) => {
        started.push(p);
        return p;
      });
    };
    // Creating the key migrates the database, before any process starts.
    const key = keyFor('test', opts.credits ?? 100);
    const initial = await Promise.all([
      ...Array.from({ length: opts.apis }, () => spawnNext('api')),
      ...Array.from({ length: opts.workers }, () => spawnNext('worker')),
    ]);
    const apis = initial.filter((p) => p.role === 'api');
    const workers = initial.filter((p) => p.role === 'worker');
    const db = (sql = await openPgSql(databaseUrl, { max: 2 }));
    const rows = async <T>(schema: z.ZodType<T>, text: string, ...params: SqlParam[]): Promise<T[]> =>
      parsedRows(schema, await db.all(text, ...params));
    return {
      pg: postgres,
      databaseUrl,
      s3,
      apis,
      workers,
      addWorker: async () => {
        const worker = await spawnNext('worker');
        workers.push(worker);
        return worker;
      },
      key,
      createKey: keyFor,
      rows,
      jobHolder: async (kind, ref) => {
        const [running] = await rows(
          z.object({ leased_by: z.string().nullable() }),
          "SELECT leased_by FROM jobs WHERE kind = ? AND ref = ? AND state = 'running'",
          kind,
          ref,
        );
        // leased_by is host:pid:nonce (jobs/job-queue.ts).
        const pid = Number(running?.leased_by?.split(':')[1]);
        return workers.find((p) => p.pid === pid);
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
