import { z } from 'zod';
import { workerEntry } from '../../../common/spawn-worker';
import type { SearchWorker } from '../workers/search-pool';

export const pgSearchWorkerDataSchema = z.object({ url: z.string().min(1) });
export type PgSearchWorkerData = z.infer<typeof pgSearchWorkerDataSchema>;

/**
 * PostgreSQL's search worker (pg-search-worker.ts), for SearchPool: each opens one connection to the service's database
 * (already migrated); bm25 over the candidates' tsvectors and the scoring run there, as SQLite's do in theirs.
 */
export function pgSearchWorker(url: string): SearchWorker {
  const data: PgSearchWorkerData = { url };
  return {
    entry: workerEntry(
      import.meta.url,
      { sibling: './pg-search-worker.ts' },
      { outPath: 'service/pg-search-worker.js' },
    ),
    data,
  };
}
