import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EFFECTS_DDL, leasedWork } from '../../../test/helpers/leased-work';
import { startPostgres, type TestPostgres } from '../../../test/helpers/postgres';
import { SERVICE_SQL_ENGINES } from '../../../test/helpers/service-sql';
import { tempDir } from '../../../test/helpers/temp';
import { openServiceDb } from '../storage/db';
import { openPgSql } from '../storage/open-pg-sql';
import type { PgSql } from '../storage/pg-sql';
import type { Sql } from '../storage/sql';
import { SqliteSql } from '../storage/sqlite-sql';
import { ServiceJobQueue } from './job-queue';

const CHILD = join(import.meta.dirname, '../../../test/helpers/job-queue-child.ts');
const CHILD_LEASE_MS = 800;
const lineSchema = z.object({ event: z.string().optional(), msg: z.string().optional() });

/** The other worker process: its stdout lines (events and queue log) as they come. */
function startChild(database: string): { child: ChildProcess; lines: z.output<typeof lineSchema>[] } {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, database, String(CHILD_LEASE_MS), '100', '60000'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: z.output<typeof lineSchema>[] = [];
  if (child.stdout)
    createInterface({ input: child.stdout }).on('line', (line) => lines.push(lineSchema.parse(JSON.parse(line))));
  return { child, lines };
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

describe.each(SERVICE_SQL_ENGINES)('job leases across processes on %s', (engine) => {
  let server: TestPostgres | undefined;
  /** What the child opens: the SQLite data folder or the PostgreSQL database's URL. */
  let database: string;
  let cleanup: () => Promise<void>;
  let sql: Sql;
  beforeAll(async () => {
    if (engine === 'postgres') server = await startPostgres();
  });
  afterAll(async () => {
    await server?.stop();
  });
  let survivor: ServiceJobQueue;
  let child: ChildProcess | undefined;
  const survivorEvents: string[] = [];
  beforeEach(async () => {
    if (server) {
      database = await server.createDatabase();
      const pool: PgSql = await openPgSql(database);
      sql = pool;
      cleanup = () => pool.close();
    } else {
      const made = await tempDir('reelsync-job-processes-');
      database = made.dir;
      const db = openServiceDb(database);
      sql = new SqliteSql(db);
      cleanup = async () => {
        db.close();
        await made.cleanup();
      };
    }
    await sql.run(EFFECTS_DDL);
    survivorEvents.length = 0;
    survivor = new ServiceJobQueue(sql, pino({ level: 'silent' }), {
      leaseMs: 5000,
      renewMs: 500,
      pollMs: 50,
      exclusive: false,
      workerId: 'survivor',
    });
    survivor.register({
      kind: 'work',
      concurrency: 1,
      baseDelayMs: 10,
      handler: leasedWork(sql, 'survivor', 0, (event) => survivorEvents.push(event)),
    });
  });
  afterEach(async () => {
    child?.kill('SIGKILL');
    await survivor.stop();
    await cleanup();
  });

  const jobRow = async (id: number) =>
    z
      .object({ state: z.string(), attempts: z.number(), leased_by: z.string().nullable() })
      .parse(await sql.get('SELECT state, attempts, leased_by FROM jobs WHERE id = ?', id));
  const effects = async () => sql.all('SELECT job_id, worker FROM job_effects');

  /** The child claims the job; the survivor starts too and, while the child renews, leaves the job alone. */
  async function childHoldsTheJob(): Promise<{ id: number; lines: z.output<typeof lineSchema>[] }> {
    const id = await survivor.enqueue('work', 'video-1', {}, 3);
    const started = startChild(database);
    child = started.child;
    await until('the child started the job', () => started.lines.some((l) => l.event === 'started'));
    await survivor.start();
    await sleep(CHILD_LEASE_MS * 2);
    expect(survivorEvents).toEqual([]);
    expect(await jobRow(id)).toEqual({ state: 'running', attempts: 1, leased_by: 'child' });
    return { id, lines: started.lines };
  }

  it('a worker SIGKILLed mid-job loses its lease; the survivor finishes the job exactly once', async () => {
    const { id } = await childHoldsTheJob();
    child?.kill('SIGKILL');
    await until('the survivor finished the job', async () => (await jobRow(id)).state === 'done');
    expect(survivorEvents).toEqual(['started', 'committed']);
    expect(await effects()).toEqual([{ job_id: id, worker: 'survivor' }]);
    expect(await jobRow(id)).toEqual({ state: 'done', attempts: 2, leased_by: 'survivor' });
  }, 90_000);

  it('a worker stopped past its lease and resumed commits nothing and cannot settle the job', async () => {
    const { id, lines } = await childHoldsTheJob();
    child?.kill('SIGSTOP');
    await until('the survivor finished the job', async () => (await jobRow(id)).state === 'done');
    child?.kill('SIGCONT');
    await until('the child dropped its outcome', () =>
      lines.some((l) => l.msg?.includes('this outcome is dropped') === true),
    );
    expect(lines.some((l) => l.event === 'committed')).toBe(false);
    expect(await effects()).toEqual([{ job_id: id, worker: 'survivor' }]);
    expect(await jobRow(id)).toEqual({ state: 'done', attempts: 2, leased_by: 'survivor' });
  }, 90_000);
});
