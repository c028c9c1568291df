import { workerData } from 'node:worker_threads';
import { PgSql } from '../../storage/pg-sql';
import { searchRequestSchema } from '../workers/search-protocol';
import { Thesaurus } from '../query/thesaurus';
import { serveRequests } from '../workers/worker-protocol';
import { pgSearchWorkerDataSchema } from './pg-search-pool';
import { PgSegmentSearch } from './pg-segment-search';

/**
 * A PostgreSQL search worker thread: parses the query (WordNet lookups read files), ranks and reads the rows on its own
 * connection, so a search never holds the HTTP thread. Started by SearchPool with pgSearchWorker (pg-search-pool.ts);
 * never imported by anything else.
 */

const { url } = pgSearchWorkerDataSchema.parse(workerData);
// Its one connection stays open, so no search waits for a login.
const sql = new PgSql(url, { max: 1, idleTimeoutMillis: 0, applicationName: `reelsync search ${process.pid}` });
const thesaurus = new Thesaurus();
// Connects and reads WordNet's noun index now, while the thread is idle, rather than during its first search. A
// server that cannot be reached yet fails only this; the first search connects again and says why.
void sql.get('SELECT 1').catch(() => undefined);
thesaurus.expand('entity');
const engine = new PgSegmentSearch(sql, thesaurus);

serveRequests(
  searchRequestSchema,
  (request) => engine.search(request),
  () => void sql.close(),
);
