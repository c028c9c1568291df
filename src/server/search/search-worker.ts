import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { unreachable } from '../indexer/types';
import { parseQuery } from './query-text';
import { searchWorkerDataSchema, toSearchWorkerSchema, type FromSearchWorker, type SearchRequest } from './search-protocol';
import { searchSegments, type SegmentHit } from './search-segments';
import { Thesaurus } from './thesaurus';

/**
 * A search worker thread: parses the query (WordNet lookups read files), ranks and reads the rows on its own read-only
 * connection to the service database, so a search never holds the HTTP thread. WAL lets it read beside the writer.
 * Started by SearchPool (search-pool.ts); never imported by anything else.
 */

const port = parentPort;
if (!port) throw new Error('search-worker.ts must run in a worker thread');

const { dbFile } = searchWorkerDataSchema.parse(workerData);
const db = new Database(dbFile, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const thesaurus = new Thesaurus();

function search(request: SearchRequest): SegmentHit[] {
  return searchSegments(db, parseQuery(request.text, thesaurus), request.field, request.filter, request.limit);
}

function send(message: FromSearchWorker): void {
  port?.postMessage(message);
}

port.on('message', (raw: unknown) => {
  const message = toSearchWorkerSchema.parse(raw);
  switch (message.type) {
    case 'search':
      try {
        send({ type: 'result', id: message.id, hits: search(message.request) });
      } catch (err) {
        const error = err instanceof Error ? { name: err.name, message: err.message } : { name: 'Error', message: String(err) };
        send({ type: 'failed', id: message.id, error });
      }
      return;
    case 'close':
      db.close();
      port.close();
      return;
    default:
      throw unreachable(message);
  }
});
