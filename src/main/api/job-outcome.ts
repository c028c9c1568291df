import { unreachable } from '../../shared/errors';
import type { ClientJobOutcome } from '../jobs/client-job-queue';
import type { LibraryApiError } from './errors';
import { DEFAULT_RETRY_AFTER_MS } from './errors';

/** Failures that every job needing the library would meet too: its queue pauses until they are resolved. */
export type LibraryBlock = 'insufficient-balance' | 'unauthorized';

/**
 * What a job does about a failed library call, the same for uploads, downloads and clips: transport failures and 5xx
 * retry with the queue's backoff; a 429 holds the job kind for the server's Retry-After; a refused key or an empty
 * balance pauses the queue (no attempt spent, nothing failed for good) until resolved; anything else (a rejected
 * request, a protocol error) fails the job.
 */
export type ApiJobVerdict =
  | { type: 'retry'; error: string }
  | { type: 'rate-limited'; retryAfterMs: number; error: string }
  | { type: 'pause'; reason: LibraryBlock; error: string }
  | { type: 'failed'; error: string };

export function apiJobVerdict(err: LibraryApiError): ApiJobVerdict {
  const error = err.message;
  switch (err.disposition) {
    case 'retry':
      return { type: 'retry', error };
    case 'rate-limited':
      return { type: 'rate-limited', retryAfterMs: err.details.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS, error };
    case 'fatal':
      return err.reason === 'insufficient-balance' || err.reason === 'unauthorized'
        ? { type: 'pause', reason: err.reason, error }
        : { type: 'failed', error };
    default:
      throw unreachable(err.disposition);
  }
}

/** The verdict as the queue's outcome; `pause` is told to pause the job's queue (the job waits, no attempt spent). */
export function apiJobOutcome(err: LibraryApiError, pause: (reason: LibraryBlock) => void): ClientJobOutcome {
  const verdict = apiJobVerdict(err);
  switch (verdict.type) {
    case 'pause':
      pause(verdict.reason);
      return { type: 'wait', delayMs: 0 };
    case 'retry':
    case 'rate-limited':
    case 'failed':
      return verdict;
    default:
      throw unreachable(verdict);
  }
}
