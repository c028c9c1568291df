import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SERVICE_SQL_ENGINES, useServiceSql } from '../../../test/helpers/service-sql';
import { countOf } from '../storage/rows';
import { payloadField, ServiceJobQueue, type JobRow } from './job-queue';

describe.each(SERVICE_SQL_ENGINES)('job queue lanes on %s', (engine) => {
  const t = useServiceSql(engine);
  let queue: ServiceJobQueue;
  beforeEach(() => {
    queue = new ServiceJobQueue(t.sql, pino({ level: 'silent' }));
  });
  afterEach(async () => {
    await queue.stop();
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

  const LANE = payloadField(engine, 'lane');

  async function enqueueBacklog(): Promise<void> {
    for (const ref of ['a1', 'a2', 'a3', 'a4', 'b1', 'b2', 'c1']) await queue.enqueue('work', ref, { lane: ref[0] }, 1);
  }

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
    expect(countOf(await t.sql.get("SELECT COUNT(*) AS n FROM jobs WHERE state = 'done'"))).toBe(7);
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
