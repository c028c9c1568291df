import { workerData } from 'node:worker_threads';
import { PgSql } from '../../storage/pg-sql';
import { searchRequestSchema } from '../search-protocol';
import { Thesaurus } from '../thesaurus';
import { serveRequests } from '../worker-protocol';
import { pgSearchWorkerDataSchema } from './pg-search-pool';
import { PgSegmentSearch } from './pg-segment-search';

/**
 * A PostgreSQL search worker thread: parses the query (WordNet lookups read files), ranks and reads the rows on its own
 * connection, so a search never holds the HTTP thread. Started by SearchPool with pgSearchWorker (pg-search-pool.ts); never imported by
 * anything else.
 */

const { url } = pgSearchWorkerDataSchema.parse(workerData);
const sql = new PgSql(url, { max: 1 });
const thesaurus = new Thesaurus();
// Reads WordNet's noun index now, while the thread is idle, rather than during its first search.
thesaurus.expand('entity');
const engine = new PgSegmentSearch(sql, thesaurus);

serveRequests(
  searchRequestSchema,
  (request) => engine.search(request),
  () => void sql.close(),
);
