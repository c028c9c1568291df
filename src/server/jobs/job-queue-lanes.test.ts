import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { openServiceDb } from '../storage/db';
import type { Db } from '../storage/db';
import { SqliteSql } from '../storage/sqlite-sql';
import { payloadField, ServiceJobQueue, type JobRow } from './job-queue';

let db: Db;
let queue: ServiceJobQueue;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  const made = await tempDir('reelsync-job-lanes-');
  cleanup = made.cleanup;
  db = openServiceDb(made.dir);
  queue = new ServiceJobQueue(new SqliteSql(db), pino({ level: 'silent' }));
});
afterEach(async () => {
  await queue.stop();
  db.close();
  await cleanup();
});

/** Registers kind `work` with lanes from the payload; each job takes a few ms and records its ref. */
function worker(concurrency: number, laneSql?: string): { order: string[]; maxRunning: () => number } {
  const order: string[] = [];
  let running = 0;
  let maxRunning = 0;
  queue.register({
    kind: 'work',
    concurrency,
    baseDelayMs: 10,
    laneSql,
    handler: async (job: JobRow) => {
      order.push(job.ref);
      running += 1;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((r) => setTimeout(r, 20));
      running -= 1;
      return { type: 'finished' };
    },
  });
  return { order, maxRunning: () => maxRunning };
}

const LANE = payloadField('sqlite', 'lane');

async function enqueueBacklog(): Promise<void> {
  for (const ref of ['a1', 'a2', 'a3', 'a4', 'b1', 'b2', 'c1']) await queue.enqueue('work', ref, { lane: ref[0] }, 1);
}

describe('job queue lanes', () => {
  it('without lanes runs oldest first', async () => {
    const { order } = worker(1);
    await enqueueBacklog();
    await queue.start();
    await queue.waitForIdle();
    expect(order).toEqual(['a1', 'a2', 'a3', 'a4', 'b1', 'b2', 'c1']);
  });

  it('with lanes takes the least recently served lane first, oldest first within it', async () => {
    const { order } = worker(1, LANE);
    await enqueueBacklog();
    await queue.start();
    await queue.waitForIdle();
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
  });

  it('fills every free slot from the lanes in turn', async () => {
    const { order } = worker(2, LANE);
    await enqueueBacklog();
    await queue.start();
    await queue.waitForIdle();
    expect(order.slice(0, 3).sort()).toEqual(['a1', 'b1', 'c1']);
    expect(order).toHaveLength(7);
    const states = db.prepare("SELECT COUNT(*) AS n FROM jobs WHERE state = 'done'").get() as { n: number };
    expect(states.n).toBe(7);
  });

  it('gives a lone lane every free slot', async () => {
    const { order, maxRunning } = worker(2, LANE);
    for (const ref of ['z1', 'z2', 'z3', 'z4']) await queue.enqueue('work', ref, { lane: 'z' }, 1);
    await queue.start();
    await queue.waitForIdle();
    expect(order).toEqual(['z1', 'z2', 'z3', 'z4']);
    expect(maxRunning()).toBe(2);
  });
});
