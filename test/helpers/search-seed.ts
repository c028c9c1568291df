import { z } from 'zod';
import { indexSegment } from '../../src/server/search/segment-index';
import { SearchCache } from '../../src/server/search/search-cache';
import { openServiceDb } from '../../src/server/storage/db';

export interface SeedText {
  caption: string;
  transcript: string;
}

/**
 * Writes `count` indexed segments (10 per video, status PARSE) for an account into a running service's database file,
 * through the indexer's own full-text writer, in one transaction: a large library without hours of real indexing.
 * Returns the account's id and the first video's number.
 */
export function seedSegments(
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
