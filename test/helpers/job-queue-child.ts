// Child process for the job lease tests: a second worker process on the same service database (a SQLite data folder
// or a postgres:// URL). Works kind `work` with leasedWork() and prints its events and its queue's log as JSON lines on
// stdout, until killed.
import { writeSync } from 'node:fs';
import pino from 'pino';
import { ServiceJobQueue } from '../../src/server/jobs/job-queue';
import { openServiceDb } from '../../src/server/storage/db';
import { openPgSql } from '../../src/server/storage/open-pg-sql';
import { SqliteSql } from '../../src/server/storage/sqlite-sql';
import { leasedWork } from './leased-work';

const [database, leaseMs, renewMs, workMs] = process.argv.slice(2);
if (!database || !leaseMs || !renewMs || !workMs)
  throw new Error('usage: job-queue-child DATA_DIR|POSTGRES_URL LEASE_MS RENEW_MS WORK_MS');
const sql = database.startsWith('postgres://') ? await openPgSql(database) : new SqliteSql(openServiceDb(database));
const queue = new ServiceJobQueue(sql, pino({ level: 'info' }, pino.destination({ fd: 1, sync: true })), {
  leaseMs: Number(leaseMs),
  renewMs: Number(renewMs),
  pollMs: 50,
  exclusive: false,
  workerId: 'child',
});
queue.register({
  kind: 'work',
  concurrency: 1,
  baseDelayMs: 10,
  handler: leasedWork(sql, 'child', Number(workMs), (event, jobId) =>
    writeSync(1, `${JSON.stringify({ event, jobId })}\n`),
  ),
});
await queue.start();
