import { describe, expect, it } from 'vitest';
import { useTempClientDb } from '../../../test/helpers/temp-db';
import { createLogger } from '../log';
import { JobsStore, type JobRow } from './jobs-store';
import { AppSettings } from '../settings/app-settings';
import { backoffDelay, ClientJobQueue, type ClientJobOutcome } from './client-job-queue';

const temp = useTempClientDb();

function queueWith(
  run: (job: JobRow, signal: AbortSignal) => Promise<ClientJobOutcome>,
  maxAttempts = 3,
): { queue: ClientJobQueue; jobs: JobsStore } {
  const jobs = new JobsStore(temp.db);
  const queue = new ClientJobQueue({
    jobs,
    pauseState: new AppSettings(temp.db).pauseState('sync'),
    handlers: [{ kind: 'upload', concurrency: 2, maxAttempts, run }],
    logger: createLogger('test'),
    backoff: { baseMs: 20, maxMs: 100 },
    tickMs: 50,
  });
  return { queue, jobs };
}

describe('ClientJobQueue', () => {
  it('retries with backoff until the handler finishes, then fails after maxAttempts', async () => {
    const runs: string[] = [];
    const { queue, jobs } = queueWith(async (job) => {
      runs.push(job.target);
      if (job.target === 'ok' && job.attempts < 3) return { type: 'retry', error: 'flaky' };
      if (job.target === 'bad') return { type: 'retry', error: 'always' };
      return { type: 'finished' };
    });
    jobs.enqueue('upload', 'ok', 0);
    jobs.enqueue('upload', 'bad', 0);
    await queue.start();
    await queue.waitForIdle();
    await queue.stop();
    expect(jobs.latest('upload', 'ok')).toMatchObject({ state: 'done', attempts: 3 });
    expect(jobs.latest('upload', 'bad')).toMatchObject({ state: 'failed', attempts: 3, last_error: 'always' });
  });

  it('honours rate-limited delays without spending attempts', async () => {
    const at: number[] = [];
    const { queue, jobs } = queueWith(async () => {
      at.push(Date.now());
      return at.length === 1 ? { type: 'rate-limited', retryAfterMs: 300, error: '429' } : { type: 'finished' };
    });
    jobs.enqueue('upload', 'x', 0);
    await queue.start();
    await queue.waitForIdle();
    await queue.stop();
    expect((at[1] ?? 0) - (at[0] ?? 0)).toBeGreaterThanOrEqual(290);
    expect(jobs.latest('upload', 'x')).toMatchObject({ state: 'done', attempts: 1 });
  });

  it('takes a retry delay the handler gives over its backoff (the shared outcome), spending an attempt; failed is final', async () => {
    const at: number[] = [];
    const { queue, jobs } = queueWith(async (job) => {
      if (job.target === 'broken') return { type: 'failed', error: 'no such video' };
      at.push(Date.now());
      return at.length === 1 ? { type: 'retry', error: 'busy', delayMs: 400 } : { type: 'finished' };
    });
    jobs.enqueue('upload', 'x', 0);
    jobs.enqueue('upload', 'broken', 0);
    await queue.start();
    await queue.waitForIdle();
    await queue.stop();
    // The queue's own backoff here is at most 100 ms: the wait came from the handler.
    expect((at[1] ?? 0) - (at[0] ?? 0)).toBeGreaterThanOrEqual(390);
    expect(jobs.latest('upload', 'x')).toMatchObject({ state: 'done', attempts: 2 });
    expect(jobs.latest('upload', 'broken')).toMatchObject({
      state: 'failed',
      attempts: 1,
      last_error: 'no such video',
    });
  });

  it('recovers rows left active by a dead process, and pause aborts running work', async () => {
    const jobs = new JobsStore(temp.db);
    jobs.enqueue('upload', 'left', 0);
    jobs.claim('upload', 1); // a crashed process held it
    let aborted = 0;
    let running: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (running = resolve));
    const { queue } = queueWith(
      (job, signal) =>
        new Promise<ClientJobOutcome>((resolve, reject) => {
          if (job.target === 'left' && aborted === 0) {
            signal.addEventListener('abort', () => ((aborted += 1), reject(new Error('aborted'))));
            running();
            return;
          }
          resolve({ type: 'finished' });
        }),
    );
    await queue.start();
    await started;
    expect(jobs.latest('upload', 'left')?.state).toBe('active');
    queue.pause('user');
    await expect.poll(() => jobs.latest('upload', 'left')?.state).toBe('queued');
    queue.resume();
    await queue.waitForIdle();
    await queue.stop();
    expect(aborted).toBe(1);
    expect(jobs.latest('upload', 'left')?.state).toBe('done');
  });

  it('keeps backoff within bounds with jitter', () => {
    expect(backoffDelay(1, 1000, 60_000, () => 0)).toBe(500);
    expect(backoffDelay(4, 1000, 60_000, () => 1)).toBe(8000);
    expect(backoffDelay(30, 1000, 60_000, () => 1)).toBe(60_000);
  });
});
