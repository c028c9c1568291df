import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectPoolAnswers } from '../../../../test/helpers/search-pool-answers';
import { openServiceDb, serviceDbFile, type Db } from '../../storage/db';
import { parseQuery } from '../query/query-text';
import { SearchPool, sqliteSearchWorker } from './search-pool';
import { searchSegments } from '../sqlite/search-segments';
import { SearchCache } from '../sqlite/search-cache';
import { indexSegment } from '../sqlite/fts-index';
import { Thesaurus } from '../query/thesaurus';

const log = pino({ level: 'silent' });

describe('SearchPool', () => {
  let dir: string;
  let db: Db;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'reelsync-search-pool-'));
    db = openServiceDb(dir);
    const cache = new SearchCache(db);
    db.prepare("INSERT INTO accounts (id, name, webhook_secret, created_at) VALUES (1, 'a', 's', 0)").run();
    db.prepare("INSERT INTO folders (id, account_id, name, created_at) VALUES (1, 1, 'f', 0)").run();
    db.transaction(() => {
      for (let v = 0; v < 20; v++) {
        const videoId = Number(
          db
            .prepare(
              `INSERT INTO videos (video_no, account_id, folder_id, video_name, original_name, status, bucket, content_type, size, sha256, created_at)
               VALUES (?, 1, 1, 'c.mp4', 'c.mp4', 'PARSE', 'b', 'video/mp4', 1, 'x', 0)`,
            )
            .run(`V${v}`).lastInsertRowid,
        );
        for (let i = 0; i < 5; i++) {
          const caption = `a ${v % 2 ? 'puppy' : 'cat'} near the harbour ${i}`;
          const id = Number(
            db
              .prepare('INSERT INTO segments (video_id, idx, start_time, end_time, caption) VALUES (?, ?, ?, ?, ?)')
              .run(videoId, i, i, i + 1, caption).lastInsertRowid,
          );
          indexSegment(cache, 1, id, { caption, transcript: '', ocrText: '', labels: '', names: '' });
        }
      }
    })();
  });

  afterAll(async () => {
    db.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers exactly what searchSegments answers on the same database, from its workers', async () => {
    const request = { text: 'dog harbor', field: 'all' as const, filter: { accountId: 1 }, limit: 30 };
    await expectPoolAnswers(
      new SearchPool({ worker: sqliteSearchWorker(serviceDbFile(dir)), workers: 2, log }),
      request,
      2,
      () =>
        Promise.resolve(
          searchSegments(new SearchCache(db), parseQuery(request.text, new Thesaurus()), 'all', { accountId: 1 }, 30),
        ),
    );
  });

  it('fails the search a dying worker was running, and starts a new worker for the next', async () => {
    const entry = join(dir, 'dying-worker.mjs');
    writeFileSync(
      entry,
      "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => process.exit(3));\n",
    );
    const pool = new SearchPool({
      worker: sqliteSearchWorker(serviceDbFile(dir), pathToFileURL(entry)),
      workers: 1,
      log,
    });
    try {
      const request = { text: 'cat', field: 'all' as const, filter: { accountId: 1 }, limit: 5 };
      await expect(pool.search(request)).rejects.toThrow(/exited with code 3/);
      await expect(pool.search(request)).rejects.toThrow(/exited with code 3/);
    } finally {
      await pool.close();
    }
  });
});
