import pino from 'pino';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EFFECTS_DDL, leasedWork, type LeasedWorkEvent } from '../../../test/helpers/leased-work';
import { SERVICE_SQL_ENGINES, useSharedDatabase } from '../../../test/helpers/service-sql';
import type { JobOutcome } from '../../shared/job-outcome';
import type { Sql } from '../storage/sql';
import { LeaseLost, ServiceJobQueue, type JobHandler, type JobQueueOptions, type JobRow } from './job-queue';

const effectRows = z.array(z.object({ job_id: z.number(), worker: z.string() }));
const jobState = z.object({ state: z.string(), attempts: z.number(), leased_by: z.string().nullable() });

const quiet = pino({ level: 'silent' });

/** A logger that keeps the messages it logs. */
function recordingLog(): { log: pino.Logger; messages: string[] } {
  const messages: string[] = [];
  const log = pino(
    { level: 'info' },
    { write: (line: string) => void messages.push(z.object({ msg: z.string() }).parse(JSON.parse(line)).msg) },
  );
  return { log, messages };
}
const SHARED: Partial<JobQueueOptions> = { leaseMs: 400, renewMs: 50, pollMs: 20, exclusive: false };

/** A handler that runs until its job is aborted (a stop), then fails; `onStart` is told when it begins. */
function untilAborted(onStart: () => void): JobHandler {
  return (_job, signal) => {
    onStart();
    return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('stopped'))));
  };
}

async function until(what: string, check: () => Promise<boolean> | boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe.each(SERVICE_SQL_ENGINES)('job leases on %s', (engine) => {
  const database = useSharedDatabase(engine);
  const connect = () => database().connect();
  let db: Sql;
  const queues: ServiceJobQueue[] = [];
  beforeEach(async () => {
    db = await connect();
    await db.run(EFFECTS_DDL);
  });
  afterEach(async () => {
    for (const q of queues.splice(0)) await q.stop();
  });

  async function queue(
    workerId: string,
    options: Partial<JobQueueOptions> = {},
    log = quiet,
  ): Promise<ServiceJobQueue> {
    const q = new ServiceJobQueue(await connect(), log, { ...SHARED, workerId, ...options });
    queues.push(q);
    return q;
  }

  /** `q` works kind `work`, one job at a time. */
  const work = (q: ServiceJobQueue, handler: JobHandler, onSettled?: (job: JobRow, outcome: JobOutcome) => void) =>
    q.register({ kind: 'work', concurrency: 1, baseDelayMs: 10, handler, onSettled });

  /** A queue named `name` working kind `work` one job at a time with leasedWork(). */
  async function leasedWorker(
    name: string,
    workMs: number,
    report: (event: LeasedWorkEvent) => void,
    onSettled?: () => void,
  ): Promise<ServiceJobQueue> {
    const q = await queue(name);
    work(q, leasedWork(await connect(), name, workMs, report), onSettled);
    return q;
  }

  const row = async (id: number) =>
    jobState.parse(await db.get('SELECT state, attempts, leased_by FROM jobs WHERE id = ?', id));
  const effects = async () => effectRows.parse(await db.all('SELECT job_id, worker FROM job_effects ORDER BY job_id'));

  it('two workers on two connections share the queue: every job runs exactly once', async () => {
    const ran: string[] = [];
    const workers: ServiceJobQueue[] = [];
    for (const name of ['A', 'B']) {
      const q = await queue(name);
      q.register({
        kind: 'work',
        concurrency: 3,
        baseDelayMs: 10,
        handler: async (job) => {
          ran.push(`${name}:${job.ref}`);
          await sleep(5 + (job.id % 4) * 5);
          return { type: 'finished' };
        },
      });
      workers.push(q);
    }
    for (let i = 0; i < 30; i++) await workers[0]?.enqueue('work', `r${i}`, {}, 1);
    await Promise.all(workers.map((q) => q.start()));
    await until('30 jobs done', async () => (await db.all("SELECT id FROM jobs WHERE state = 'done'")).length === 30);
    const refs = ran.map((r) => r.split(':')[1]);
    expect(new Set(refs).size).toBe(30);
    expect(refs).toHaveLength(30);
    expect(ran.some((r) => r.startsWith('A:'))).toBe(true);
    expect(ran.some((r) => r.startsWith('B:'))).toBe(true);
  });

  it("a job queued in a transaction on the queue's own database runs once that commits", async () => {
    const sql = await connect();
    // No polls: only the enqueue's kick can start the job.
    const q = new ServiceJobQueue(sql, quiet, { ...SHARED, pollMs: 60_000, workerId: 'A' });
    queues.push(q);
    const ran: string[] = [];
    work(q, (job) => {
      ran.push(job.ref);
      return Promise.resolve({ type: 'finished' });
    });
    await q.start();
    await q.waitForIdle();
    const id = await sql.transaction(async (tx) => {
      await tx.run('INSERT INTO job_effects (job_id, worker) VALUES (0, ?)', 'enqueuer');
      return q.enqueue('work', 'in-tx', {}, 1, tx);
    });
    await until('the job done', async () => (await row(id)).state === 'done');
    expect(ran).toEqual(['in-tx']);
  });

  it('renewal keeps a job running past its lease length from being taken', async () => {
    const events: string[] = [];
    const a = await leasedWorker('A', 1200, (e) => events.push(`A:${e}`));
    const id = await a.enqueue('work', 'long', {}, 3);
    await a.start();
    await until('A started', () => events.includes('A:started'));
    const b = await leasedWorker('B', 0, (e) => events.push(`B:${e}`));
    await b.start();
    await until('the job done', async () => (await row(id)).state === 'done');
    expect(events).toEqual(['A:started', 'A:committed']);
    expect(await effects()).toEqual([{ job_id: id, worker: 'A' }]);
    expect(await row(id)).toEqual({ state: 'done', attempts: 1, leased_by: 'A' });
  });

  it('a lease that passed goes to another worker; the first can then neither commit, finish nor retry', async () => {
    let release: (outcome: JobOutcome) => void = () => undefined;
    const settledBy: string[] = [];
    let aSignal: AbortSignal | undefined;
    let aLease: Parameters<JobHandler>[2] | undefined;
    // A renews too rarely for its lease: a process that stalled past it.
    const aLog = recordingLog();
    const a = await queue('A', { leaseMs: 300, renewMs: 60_000 }, aLog.log);
    work(
      a,
      (_job, signal, lease) => {
        aSignal = signal;
        aLease = lease;
        return new Promise((resolve) => (release = resolve));
      },
      () => void settledBy.push('A'),
    );
    const finished = await a.enqueue('work', 'finish', {}, 3);
    await a.start();
    await until('A has the job', () => aLease !== undefined);
    const events: LeasedWorkEvent[] = [];
    const b = await leasedWorker(
      'B',
      0,
      (e) => events.push(e),
      () => void settledBy.push('B'),
    );
    await b.start();
    await until('B finished the job', async () => (await row(finished)).state === 'done');
    expect(await row(finished)).toEqual({ state: 'done', attempts: 2, leased_by: 'B' });

    const aSql = await connect();
    await expect(aSql.transaction(async (tx) => aLease?.hold(tx))).rejects.toBeInstanceOf(LeaseLost);
    release({ type: 'finished' });
    await until('A dropped its outcome', () => aLog.messages.some((m) => m.includes('this outcome is dropped')));
    expect(aSignal?.aborted).toBe(false);
    expect(await row(finished)).toEqual({ state: 'done', attempts: 2, leased_by: 'B' });
    expect(settledBy).toEqual(['B']);
    expect(await effects()).toEqual([{ job_id: finished, worker: 'B' }]);
  });

  it('a worker whose renewal finds its lease gone stops the job, and its retry changes nothing', async () => {
    let aSignal: AbortSignal | undefined;
    const aLog = recordingLog();
    const a = await queue('A', { leaseMs: 2000, renewMs: 50 }, aLog.log);
    work(a, (_job, signal) => {
      aSignal = signal;
      return new Promise((resolve) =>
        signal.addEventListener('abort', () => resolve({ type: 'retry', error: 'stopped' })),
      );
    });
    const id = await a.enqueue('work', 'stolen', {}, 3);
    await a.start();
    await until('A has the job', () => aSignal !== undefined);
    // Another worker took it over after A's lease passed (as B does above), and finished it.
    await db.run("UPDATE jobs SET leased_by = 'B', state = 'done' WHERE id = ?", id);
    await until('A stopped the job', () => aSignal?.aborted === true, 5000);
    await until('A dropped its retry', () => aLog.messages.some((m) => m.includes('this outcome is dropped')));
    expect(await row(id)).toEqual({ state: 'done', attempts: 1, leased_by: 'B' });
  });

  it('a job whose worker was lost on its last attempt is dead, reported once whoever finds it', async () => {
    const settled: string[] = [];
    const id = await (await queue('X')).enqueue('work', 'doomed', {}, 2);
    await db.run(
      "UPDATE jobs SET state = 'running', attempts = 2, leased_by = 'gone', lease_until = 1 WHERE id = ?",
      id,
    );
    const handler: JobHandler = () => Promise.resolve({ type: 'finished' });
    for (const name of ['A', 'B']) {
      const q = await queue(name);
      work(q, handler, (_job, outcome) => void settled.push(`${name}:${outcome.type}`));
      await q.start();
    }
    await until('the job dead', async () => (await row(id)).state === 'dead');
    await sleep(200);
    expect(settled).toHaveLength(1);
    expect(settled[0]).toMatch(/^[AB]:failed$/);
  });

  it("a shared worker leaves another worker's live lease alone; the only worker takes its jobs back at start", async () => {
    const ran: string[] = [];
    const handler: JobHandler = (job) => {
      ran.push(job.ref);
      return Promise.resolve({ type: 'finished' });
    };
    const id = await (await queue('X')).enqueue('work', 'held', {}, 3);
    const farFuture = Date.now() + 60_000;
    await db.run(
      "UPDATE jobs SET state = 'running', attempts = 1, leased_by = 'other', lease_until = ? WHERE id = ?",
      farFuture,
      id,
    );
    const shared = await queue('shared');
    work(shared, handler);
    await shared.start();
    await sleep(300);
    expect(ran).toEqual([]);
    await shared.stop();
    const only = await queue('only', { exclusive: true });
    work(only, handler);
    await only.start();
    await until('the job done', async () => (await row(id)).state === 'done');
    expect(ran).toEqual(['held']);
    expect(await row(id)).toEqual({ state: 'done', attempts: 2, leased_by: 'only' });
  });

  it('stopping gives a running job back uncounted, at once, to the next worker', async () => {
    const a = await queue('A', { leaseMs: 60_000 });
    let started = false;
    work(
      a,
      untilAborted(() => (started = true)),
    );
    const id = await a.enqueue('work', 'handed-over', {}, 1);
    await a.start();
    await until('A started', () => started);
    await a.stop();
    expect(await row(id)).toMatchObject({ state: 'queued', attempts: 0 });
    const b = await queue('B');
    work(b, () => Promise.resolve({ type: 'finished' }));
    await b.start();
    await until('B finished it', async () => (await row(id)).state === 'done', 5000);
    expect(await row(id)).toEqual({ state: 'done', attempts: 1, leased_by: 'B' });
  });
  it('a stop while a claim is on its way gives the claimed job back and never starts it', async () => {
    // The claim's answer is held until stop() has been called: the job arrives after the running jobs were aborted.
    let claimSeen!: () => void;
    const claimInFlight = new Promise<void>((r) => (claimSeen = r));
    let letClaimAnswer!: () => void;
    const claimHeld = new Promise<void>((r) => (letClaimAnswer = r));
    const inner = await connect();
    const held: Sql = {
      dialect: inner.dialect,
      all: (sql, ...params) => inner.all(sql, ...params),
      run: (sql, ...params) => inner.run(sql, ...params),
      transaction: (fn) => inner.transaction(fn),
      get: async (sql, ...params) => {
        const answer = await inner.get(sql, ...params);
        if (sql.includes("SET state = 'running'")) {
          claimSeen();
          await claimHeld;
        }
        return answer;
      },
    };
    const q = new ServiceJobQueue(held, quiet, { ...SHARED, workerId: 'A', leaseMs: 60_000 });
    let started = false;
    work(
      q,
      untilAborted(() => (started = true)),
    );
    const id = await q.enqueue('work', 'claimed-late', {}, 1);
    await q.start();
    await claimInFlight;
    const stopped = q.stop();
    letClaimAnswer();
    await stopped;
    expect(started).toBe(false);
    expect(await row(id)).toMatchObject({ state: 'queued', attempts: 0 });
  });
});
