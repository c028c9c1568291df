import Database from 'better-sqlite3';
import { workerData } from 'node:worker_threads';
import { parseQuery } from '../query/query-text';
import { searchRequestSchema, searchWorkerDataSchema } from '../workers/search-protocol';
import { SearchCache } from './search-cache';
import { searchSegments } from './search-segments';
import { fuseSemantic } from '../ranking/semantic-fusion';
import { hasSegmentIndex } from './fts-index';
import { SqliteSql } from '../../storage/sqlite-sql';
import { Thesaurus } from '../query/thesaurus';
import { serveRequests } from '../workers/worker-protocol';

/**
 * A search worker thread: parses the query (WordNet lookups read files), ranks and reads the rows on its own read-only
 * connection to the service database, so a search never holds the HTTP thread. WAL lets it read beside the writer.
 * Started by SearchPool (search-pool.ts); never imported by anything else.
 */

const { dbFile } = searchWorkerDataSchema.parse(workerData);
const db = new Database(dbFile, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const sql = new SqliteSql(db);
const cache = new SearchCache(db);
const thesaurus = new Thesaurus();
// Reads WordNet's noun index now, while the thread is idle, rather than during its first search.
thesaurus.expand('entity');

serveRequests(
  searchRequestSchema,
  // An account with nothing indexed finds nothing: its query is not even parsed.
  (request) =>
    hasSegmentIndex(cache, request.filter.accountId)
      ? fuseSemantic(
          sql,
          request,
          searchSegments(cache, parseQuery(request.text, thesaurus), request.field, request.filter, request.limit),
        )
      : [],
  () => db.close(),
);
