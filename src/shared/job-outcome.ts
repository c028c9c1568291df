/**
 * What a job handler tells its queue, in both halves (the client's sync/download/clip queue and the service's
 * index/ingest/delivery queue). Each queue may add outcomes only it knows (the client's `wait` and `rate-limited`).
 */
export type JobOutcome =
  | { type: 'finished' }
  /** Try again later; an attempt is spent. `delayMs` overrides the queue's backoff. */
  | { type: 'retry'; error: string; delayMs?: number }
  /** Never try again. */
  | { type: 'failed'; error: string };
