import { afterAll, beforeAll, expect, it } from 'vitest';
import { pino } from 'pino';
import { tempDir } from '../../../test/helpers/temp';
import { Accounts } from '../accounts/accounts';
import type { JobHandler, JobLease, JobRow } from '../jobs/job-queue';
import { openServiceDb, type Db } from '../storage/db';
import { SqliteSql } from '../storage/sqlite-sql';
import { claimingOperation } from './operation-claim';
import { Operations } from './operations';

/** Two worker processes (two connections to one database) handed the same stage job of one operation. */
let dbs: Db[] = [];
let cleanup: () => Promise<void>;
beforeAll(async () => {
  const t = await tempDir('reelsync-op-claims-');
  cleanup = t.cleanup;
  dbs = [openServiceDb(t.dir), openServiceDb(t.dir)];
});
afterAll(async () => {
  for (const db of dbs) db.close();
  await cleanup();
});

const log = pino({ level: 'silent' });
/** These stages commit no job result, so they never hold the job's lease. */
const noLease: JobLease = { hold: () => Promise.resolve() };
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const jobFor = (operationId: string): JobRow => ({
  id: 1,
  kind: 'dl-ingest',
  ref: operationId,
  payload: JSON.stringify({ operationId }),
  state: 'running',
  attempts: 1,
  max_attempts: 3,
  retry_after: 0,
  last_error: null,
});

function connections(): [Db, Db] {
  const [a, b] = dbs;
  if (!a || !b) throw new Error('two connections expected');
  return [a, b];
}

function workers(): [Operations, Operations] {
  const [a, b] = connections();
  return [new Operations(new SqliteSql(a)), new Operations(new SqliteSql(b))];
}

it('runs an operation stage in one of two processes at a time; the other is told to come back later', async () => {
  const [one, two] = workers();
  const accountId = (await new Accounts(new SqliteSql(connections()[0])).ensure('acme')).id;
  const op = await one.create({ accountId, kind: 'ingest', resource: 'vid_1' });
  let running = 0;
  let most = 0;
  const stage: JobHandler = async () => {
    most = Math.max(most, ++running);
    await sleep(200);
    running -= 1;
    return { type: 'finished' };
  };
  const signal = new AbortController().signal;
  const outcomes = await Promise.all([
    claimingOperation({ operations: one, ctx: { log } }, stage)(jobFor(op.id), signal, noLease),
    claimingOperation({ operations: two, ctx: { log } }, stage)(jobFor(op.id), signal, noLease),
  ]);
  expect(most).toBe(1);
  expect(outcomes.map((o) => o.type).sort()).toEqual(['finished', 'retry']);
  expect((await one.byId(op.id))?.claimed_by).toBeNull(); // released when the stage returned
});

/** Runs `during` inside a stage `one` holds (lease 90 ms), then waits until the stage is aborted; its reason. */
async function abortReason(one: Operations, operationId: string, during: () => Promise<void>): Promise<unknown> {
  let aborted: unknown;
  const stage: JobHandler = async (_job, signal) => {
    await during();
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    aborted = signal.reason;
    return { type: 'finished' };
  };
  await claimingOperation({ operations: one, ctx: { log } }, stage, 90)(
    jobFor(operationId),
    new AbortController().signal,
    noLease,
  );
  return aborted;
}

it('aborts a stage whose claim lapsed and was taken by another process', async () => {
  const [one, two] = workers();
  const accountId = (await new Accounts(new SqliteSql(connections()[0])).ensure('acme')).id;
  const op = await one.create({ accountId, kind: 'ingest', resource: 'vid_2' });
  const aborted = await abortReason(one, op.id, async () => {
    // The holder stalls past its lease (no renewal reaches the database in time); another process takes over.
    connections()[0].prepare('UPDATE dl_operations SET claim_until = 0 WHERE id = ?').run(op.id);
    expect(await two.claim(op.id, 60_000)).toBe(true);
  });
  expect(String(aborted)).toMatch(/claimed by another worker/);
  expect((await one.byId(op.id))?.claimed_by).toBe(two.owner); // the loser's release leaves the new holder's claim
});

it('aborts a stage whose operation another process ended (a cancel taken by an api replica)', async () => {
  const [one, two] = workers();
  const accountId = (await new Accounts(new SqliteSql(connections()[0])).ensure('acme')).id;
  const op = await one.create({ accountId, kind: 'ingest', resource: 'vid_3' });
  const aborted = await abortReason(one, op.id, async () => {
    expect(await two.finish(op.id, { error: null, cancelled: true })).toBe(true);
  });
  expect(String(aborted)).toMatch(/the operation ended/);
});
