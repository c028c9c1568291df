import { describe, expect, it } from 'vitest';
import type { LibraryApiError } from './errors';
import { classify, DEFAULT_RETRY_AFTER_MS, fromTransportError } from './errors';
import { apiJobOutcome, apiJobVerdict, type LibraryBlock } from './job-outcome';

const transport = (code: string): LibraryApiError =>
  fromTransportError(Object.assign(new Error('socket'), { code })) as LibraryApiError;

describe('one mapping from a failed library call to what the job does', () => {
  it.each([
    ['402 / 0402 insufficient balance', classify(402, '0402', undefined, 'no credit'), 'insufficient-balance'],
    ['200 carrying 0402', classify(200, '0402', undefined, 'no credit'), 'insufficient-balance'],
    ['401 refused key', classify(401, undefined, undefined, 'bad key'), 'unauthorized'],
    ['403 refused key', classify(403, '0401', undefined, 'bad key'), 'unauthorized'],
  ] as const)('%s pauses the queue, the job waits without spending an attempt', (_, err, reason) => {
    const paused: LibraryBlock[] = [];
    expect(apiJobVerdict(err)).toEqual({ type: 'pause', reason, error: err.message });
    expect(apiJobOutcome(err, (r) => paused.push(r))).toEqual({ type: 'wait', delayMs: 0 });
    expect(paused).toEqual([reason]);
  });

  it("a 429 waits the server's Retry-After, or the default when it gave none", () => {
    const never = (): never => {
      throw new Error('no pause for a rate limit');
    };
    expect(apiJobOutcome(classify(429, undefined, 1_234, 'slow down'), never)).toMatchObject({
      type: 'rate-limited',
      retryAfterMs: 1_234,
    });
    expect(apiJobOutcome(classify(200, '0429', undefined, 'slow down'), never)).toMatchObject({
      type: 'rate-limited',
      retryAfterMs: DEFAULT_RETRY_AFTER_MS,
    });
  });

  it.each([
    ['503', classify(503, undefined, undefined, 'busy')],
    ['408', classify(408, undefined, undefined, 'timeout')],
    ['ECONNREFUSED', transport('ECONNREFUSED')],
    ['ECONNRESET', transport('ECONNRESET')],
  ])('%s retries with the queue backoff', (_, err) => {
    expect(apiJobOutcome(err, () => expect.unreachable())).toEqual({ type: 'retry', error: err.message });
  });

  it.each([
    ['a rejected request', classify(400, '0001', undefined, 'bad folder')],
    ['a redirect', classify(302, undefined, undefined, '')],
  ])('%s fails the job and pauses nothing', (_, err) => {
    expect(apiJobOutcome(err, () => expect.unreachable())).toEqual({ type: 'failed', error: err.message });
  });
});
