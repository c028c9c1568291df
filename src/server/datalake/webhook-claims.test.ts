import { afterAll, beforeAll, expect, it } from 'vitest';
import { startWebhookReceiver } from '../../../test/helpers/datalake';
import { tempDir } from '../../../test/helpers/temp';
import type { JobOutcome } from '../../shared/job-outcome';
import { Accounts } from '../accounts/accounts';
import type { JobLease, JobRow } from '../jobs/job-queue';
import { openServiceDb, type Db } from '../storage/db';
import { SqliteSql } from '../storage/sqlite-sql';
import { Deliveries } from './deliveries';
import { Operations } from './operations';
import { WEBHOOK_JOB, webhookHandler, type WebhookContext } from './webhooks';

/**
 * Two worker processes (two connections to one service database) run the same delivery job at once, as they do when
 * one's job lease lapsed while its request was still in flight: the receiver gets the webhook once.
 */
/** A delivery attempt commits no job result under the job's lease. */
const noLease: JobLease = { hold: () => Promise.resolve() };
let secret = '';
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let dbs: Db[] = [];
let cleanup: () => Promise<void>;

beforeAll(async () => {
  receiver = await startWebhookReceiver(() => secret);
  const t = await tempDir('reelsync-hook-claims-');
  cleanup = t.cleanup;
  dbs = [openServiceDb(t.dir), openServiceDb(t.dir)];
});
afterAll(async () => {
  for (const db of dbs) db.close();
  await cleanup();
  await receiver.close();
});

const worker = (db: Db): WebhookContext => {
  const sql = new SqliteSql(db);
  return {
    sql,
    accounts: new Accounts(sql),
    config: {
      webhooks: { maxAttempts: 3, baseDelayMs: 100, timeoutMs: 5_000 },
      network: { allowPrivateTargets: true },
    },
  };
};

it('sends a delivery attempt once when two worker processes run its job at the same time', async () => {
  const [first, second] = dbs.map(worker);
  if (!first || !second) throw new Error('two workers expected');
  const account = await first.accounts.ensure('acme');
  secret = account.webhookSecret;
  const op = await new Operations(first.sql).create({ accountId: account.id, kind: 'ingest', resource: 'vid_1' });
  const delivery = await new Deliveries(first.sql).create(op.id, account.id, `${receiver.url}/slow`, '{"n":1}');
  const job: JobRow = {
    id: 1,
    kind: WEBHOOK_JOB,
    ref: delivery.id,
    payload: JSON.stringify({ deliveryId: delivery.id }),
    state: 'running',
    attempts: 1,
    max_attempts: 4,
    retry_after: 0,
    last_error: null,
  };
  const signal = new AbortController().signal;
  const outcomes: JobOutcome[] = await Promise.all([
    webhookHandler(first)(job, signal, noLease),
    webhookHandler(second)(job, signal, noLease),
  ]);
  expect(outcomes.map((o) => o.type).sort()).toEqual(['finished', 'retry']);
  expect(receiver.received.filter((r) => r.path === '/slow')).toHaveLength(1);
  expect(receiver.received[0]?.verified).toBe(true);
  // The job run again later (the retry) finds the delivery settled and sends nothing.
  expect(await webhookHandler(second)(job, signal, noLease)).toEqual({ type: 'finished' });
  expect(receiver.received).toHaveLength(1);
  expect(await new Deliveries(second.sql).byId(delivery.id)).toMatchObject({
    status: 'success',
    attempt: 1,
    response_code: 204,
    claimed_by: null,
  });
});
