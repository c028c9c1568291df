import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SERVICE_SQL_ENGINES, useServiceSql } from '../../../test/helpers/service-sql';
import { ServiceJobQueue, type JobRow } from './job-queue';

const jobState = z.object({ state: z.string(), attempts: z.number().int() });

describe.each(SERVICE_SQL_ENGINES)('a job kind behind another on %s', (engine) => {
  const t = useServiceSql(engine);
  let queue: ServiceJobQueue;
  const events: string[] = [];
  /** Resolves the running `back` job; until then it runs (and stops when aborted). */
  let releaseBack: () => void = () => {};

  beforeEach(() => {
    events.length = 0;
    queue = new ServiceJobQueue(t.sql, pino({ level: 'silent' }), { pollMs: 20 });
    queue.register({
      kind: 'front',
      concurrency: 1,
      baseDelayMs: 10,
      handler: async (job: JobRow) => {
        events.push(`front ${job.ref}`);
        await new Promise((r) => setTimeout(r, 20));
        return { type: 'finished' };
      },
    });
    queue.register({
      kind: 'back',
      concurrency: 1,
      baseDelayMs: 10,
      behind: ['front'],
      handler: (job: JobRow, signal: AbortSignal) => {
        events.push(`back ${job.ref} started`);
        return new Promise((resolve, reject) => {
          releaseBack = () => resolve({ type: 'finished' });
          signal.addEventListener('abort', () => {
            events.push(`back ${job.ref} stopped`);
            reject(signal.reason as Error);
          });
        });
      },
    });
  });
  afterEach(async () => {
    releaseBack();
    await queue.stop();
  });

  it('claims nothing while a job it waits behind is queued or running', async () => {
    await queue.enqueue('back', 'b1', {}, 1);
    for (const ref of ['f1', 'f2']) await queue.enqueue('front', ref, {}, 1);
    await queue.start();
    await expect.poll(() => events.length).toBe(3);
    expect(events).toEqual(['front f1', 'front f2', 'back b1 started']);
    releaseBack();
    await queue.waitForIdle();
  });

  it('gives a running job back, uncounted, when one it waits behind arrives, and runs it again after', async () => {
    const id = await queue.enqueue('back', 'b1', {}, 1);
    await queue.start();
    await expect.poll(() => events).toEqual(['back b1 started']);
    await queue.enqueue('front', 'f1', {}, 1);
    await expect.poll(() => events.length).toBe(4);
    // The new job starts at once (its worker comes first in a pump); the running one is stopped beside it.
    expect(events[0]).toBe('back b1 started');
    expect(events.slice(1, 3).sort()).toEqual(['back b1 stopped', 'front f1']);
    expect(events[3]).toBe('back b1 started');
    // Its only attempt was given back, not spent: it runs to the end.
    releaseBack();
    await queue.waitForIdle();
    expect(jobState.parse(await t.sql.get('SELECT state, attempts FROM jobs WHERE id = ?', id))).toEqual({
      state: 'done',
      attempts: 1,
    });
  });
});
