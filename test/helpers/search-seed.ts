import { z } from 'zod';
import { indexSegment } from '../../src/server/search/sqlite/fts-index';
import { SearchCache } from '../../src/server/search/sqlite/search-cache';
import { openServiceDb } from '../../src/server/storage/db';
import { indexSegmentsPg } from '../../src/server/search/pg/pg-segment-index';
import type { Sql } from '../../src/server/storage/sql';
import type { TestService } from './service';

export interface SeedText {
  caption: string;
  transcript: string;
}

/**
 * Writes `count` indexed segments (10 per video, status PARSE) for an account into a running service's database file,
 * through the indexer's own full-text writer, in one transaction: a large library without hours of real indexing.
 * Returns the account's id and the first video's number.
 */
export async function seedSegments(
  service: TestService,
  account: string,
  count: number,
  textOf: (i: number) => SeedText,
): Promise<{ accountId: number; firstVideoNo: string }> {
  if (service.backend === 'team') return service.withSql((sql) => seedSegmentsSql(sql, account, count, textOf));
  return seedSegmentsSqlite(service.dataDir, account, count, textOf);
}

/** `seedSegments` into a service data folder's SQLite database (for code that runs no service: benchmarks). */
export function seedSegmentsSqlite(
  dataDir: string,
  account: string,
  count: number,
  textOf: (i: number) => SeedText,
): { accountId: number; firstVideoNo: string } {
  const db = openServiceDb(dataDir);
  const cache = new SearchCache(db);
  try {
    const accountId = z
      .object({ id: z.number() })
      .parse(db.prepare('SELECT id FROM accounts WHERE name = ?').get(account)).id;
    const now = Date.now();
    const folderId = Number(
      db.prepare("INSERT INTO folders (account_id, name, created_at) VALUES (?, 'seeded', ?)").run(accountId, now)
        .lastInsertRowid,
    );
    const video = db.prepare(
      `INSERT INTO videos (video_no, account_id, folder_id, video_name, original_name, status, bucket, content_type, size, sha256, created_at)
       VALUES (?, ?, ?, ?, ?, 'PARSE', ?, 'video/mp4', 1, 'x', ?)`,
    );
    const segment = db.prepare(
      'INSERT INTO segments (video_id, idx, start_time, end_time, caption, transcript) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const prefix = `S${accountId}x${now.toString(36)}`;
    db.transaction(() => {
      let videoId = 0;
      for (let i = 0; i < count; i++) {
        const idx = i % 10;
        if (idx === 0) {
          const name = `seeded-${i / 10}.mp4`;
          videoId = Number(
            video.run(`${prefix}v${i / 10}`, accountId, folderId, name, name, `reelsync-${accountId}`, now)
              .lastInsertRowid,
          );
        }
        const { caption, transcript } = textOf(i);
        const id = Number(segment.run(videoId, idx, idx * 5, idx * 5 + 5, caption, transcript).lastInsertRowid);
        indexSegment(cache, accountId, id, { caption, transcript, ocrText: '', labels: '', names: '' });
      }
    })();
    return { accountId, firstVideoNo: `${prefix}v0` };
  } finally {
    db.close();
  }
}

const VIDEOS_PER_BATCH = 200;

/** The same rows on PostgreSQL, through the indexer's PostgreSQL writer, in multi-row statements of one transaction. */
export async function seedSegmentsSql(
  sql: Sql,
  account: string,
  count: number,
  textOf: (i: number) => SeedText,
): Promise<{ accountId: number; firstVideoNo: string }> {
  const Id = z.object({ id: z.coerce.number() });
  const accountId = Id.parse(await sql.get('SELECT id FROM accounts WHERE name = ?', account)).id;
  const now = Date.now();
  const prefix = `S${accountId}x${now.toString(36)}`;
  await sql.transaction(async (tx) => {
    const folderId = Id.parse(
      await tx.get(
        "INSERT INTO folders (account_id, name, created_at) VALUES (?, 'seeded', ?) RETURNING id",
        accountId,
        now,
      ),
    ).id;
    const videoCount = Math.ceil(count / 10);
    for (let first = 0; first < videoCount; first += VIDEOS_PER_BATCH) {
      const nos = Array.from({ length: Math.min(VIDEOS_PER_BATCH, videoCount - first) }, (_, k) => first + k);
      const videoIds = z.array(Id).parse(
        await tx.all(
          `INSERT INTO videos (video_no, account_id, folder_id, video_name, original_name, status, bucket, content_type, size, sha256, created_at)
           VALUES ${nos.map(() => "(?, ?, ?, ?, ?, 'PARSE', ?, 'video/mp4', 1, 'x', ?)").join(', ')} RETURNING id`,
          ...nos.flatMap((v) => [
            `${prefix}v${v}`,
            accountId,
            folderId,
            `seeded-${v}.mp4`,
            `seeded-${v}.mp4`,
            `reelsync-${accountId}`,
            now,
          ]),
        ),
      );
      const rows = nos.flatMap((v, k) =>
        Array.from({ length: Math.min(10, count - v * 10) }, (_, idx) => ({
          videoId: videoIds[k]!.id,
          idx,
          ...textOf(v * 10 + idx),
        })),
      );
      const segmentIds = z.array(Id).parse(
        await tx.all(
          `INSERT INTO segments (video_id, idx, start_time, end_time, caption, transcript)
           VALUES ${rows.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')} RETURNING id`,
          ...rows.flatMap((r) => [r.videoId, r.idx, r.idx * 5, r.idx * 5 + 5, r.caption, r.transcript]),
        ),
      );
      await indexSegmentsPg(
        tx,
        accountId,
        rows.map((r, k) => ({
          segmentId: segmentIds[k]!.id,
          text: { caption: r.caption, transcript: r.transcript, ocrText: '', labels: '', names: '' },
        })),
      );
    }
  });
  // The planner's statistics as autovacuum leaves them within a minute of a bulk load: without them a search right
  // after seeding plans for the tables as they were before it (a nested loop over every one of the account's videos).
  await sql.run('ANALYZE videos, segments, segment_search, segment_search_rank');
  return { accountId, firstVideoNo: `${prefix}v0` };
}
