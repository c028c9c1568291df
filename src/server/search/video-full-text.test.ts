import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SERVICE_SQL_ENGINES, useServiceSql } from '../../../test/helpers/service-sql';
import { Videos } from '../library/videos';
import type { Sql } from '../storage/sql';
import { searchSegmentsPg } from './pg/pg-segment-search';
import { parseQuery } from './query/query-text';
import { SearchCache } from './sqlite/search-cache';
import { searchSegments } from './sqlite/search-segments';
import { videoFullText } from './segment-index';

const idRow = z.object({ id: z.number() });
const TEXT = { caption: 'a red helicopter over the harbour', transcript: 'lift off now', ocrText: '', labels: '' };

const insertId = async (sql: Sql, text: string, ...params: (string | number)[]): Promise<number> =>
  idRow.parse(await sql.get(`${text} RETURNING id`, ...params)).id;

/** An account's video with one segment, indexed as persist-index does: in the transaction that writes it. */
async function indexedVideo(sql: Sql, account: string): Promise<{ accountId: number; videoId: number }> {
  const insert = (text: string, ...params: (string | number)[]) => insertId(sql, text, ...params);
  const accountId = await insert("INSERT INTO accounts (name, webhook_secret, created_at) VALUES (?, 's', 1)", account);
  const folderId = await insert('INSERT INTO folders (account_id, name, created_at) VALUES (?, ?, 1)', accountId, 'f');
  const videoId = await insert(
    `INSERT INTO videos (video_no, account_id, folder_id, video_name, original_name, status, bucket, content_type, size,
       sha256, created_at) VALUES (?, ?, ?, 'clip', 'clip.mp4', 'PARSE', 'b', 'video/mp4', 1, 'x', 1)`,
    `${account}-1`,
    accountId,
    folderId,
  );
  await sql.transaction(async (tx) => {
    await videoFullText.prepare(tx, accountId);
    const segmentId = await insertId(
      tx,
      `INSERT INTO segments (video_id, idx, start_time, end_time, caption, transcript, ocr_text, labels)
       VALUES (?, 0, 0, 5, ?, ?, '', '[]')`,
      videoId,
      TEXT.caption,
      TEXT.transcript,
    );
    await videoFullText.index(tx, accountId, segmentId, { ...TEXT, names: 'clip' }, TEXT.caption);
  });
  return { accountId, videoId };
}

describe.each(SERVICE_SQL_ENGINES)('a video in the full-text index on %s', (engine) => {
  const t = useServiceSql(engine);
  const search = (accountId: number, text: string) =>
    t.db
      ? Promise.resolve(searchSegments(new SearchCache(t.db), parseQuery(text), 'all', { accountId }, 10))
      : searchSegmentsPg(t.sql, parseQuery(text), 'all', { accountId }, 10);

  it('is found once indexed, by its own account only, and no longer once deleted', async () => {
    const alpha = await indexedVideo(t.sql, 'alpha');
    const beta = await indexedVideo(t.sql, 'beta');
    expect((await search(alpha.accountId, 'helicopter')).map((h) => h.videoNo)).toEqual(['alpha-1']);
    expect((await search(alpha.accountId, 'lift off')).length).toBe(1);
    await new Videos(t.sql).delete(alpha.videoId);
    expect(await search(alpha.accountId, 'helicopter')).toEqual([]);
    expect((await search(beta.accountId, 'helicopter')).map((h) => h.videoNo)).toEqual(['beta-1']);
  });

  it('unindex takes a video out of the index while its segments stay (re-indexing writes them again)', async () => {
    const alpha = await indexedVideo(t.sql, 'alpha');
    await t.sql.transaction((tx) => videoFullText.unindex(tx, alpha.accountId, alpha.videoId));
    expect(await search(alpha.accountId, 'helicopter')).toEqual([]);
    const n = z.object({ n: z.number() }).parse(await t.sql.get('SELECT COUNT(*) AS n FROM segments')).n;
    expect(n).toBe(1);
  });
});
