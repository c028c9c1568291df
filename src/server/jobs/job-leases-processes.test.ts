import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EFFECTS_DDL, leasedWork } from '../../../test/helpers/leased-work';
import { tempDir } from '../../../test/helpers/temp';
import { openServiceDb, type Db } from '../storage/db';
import { SqliteSql } from '../storage/sqlite-sql';
import { ServiceJobQueue } from './job-queue';

const CHILD = join(import.meta.dirname, '../../../test/helpers/job-queue-child.ts');
const CHILD_LEASE_MS = 800;
const lineSchema = z.object({ event: z.string().optional(), msg: z.string().optional() });

/** The other worker process: its stdout lines (events and queue log) as they come. */
function startChild(dir: string): { child: ChildProcess; lines: z.output<typeof lineSchema>[] } {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir, String(CHILD_LEASE_MS), '100', '60000'], {
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

describe('job leases across processes (SQLite file)', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let db: Db;
  let sql: SqliteSql;
  let survivor: ServiceJobQueue;
  let child: ChildProcess | undefined;
  const survivorEvents: string[] = [];
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir('reelsync-job-processes-'));
    db = openServiceDb(dir);
    sql = new SqliteSql(db);
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
    db.close();
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
    const started = startChild(dir);
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
