import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { tempDir } from '../../../test/helpers/temp';
import { Accounts } from '../accounts/accounts';
import { openServiceDb, type Db } from '../storage/db';
import { SqliteSql } from '../storage/sqlite-sql';
import { Collections } from './collections';
import { DlVideos, type NewDlVideo } from './dl-videos';
import { Operations } from './operations';

let db: Db;
let accountId: number;
let collectionId: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  const made = await tempDir('reelsync-rows-');
  cleanup = made.cleanup;
  db = openServiceDb(made.dir);
  accountId = (await new Accounts(new SqliteSql(db)).ensure('a')).id;
  collectionId = new Collections(db).create(accountId, 'c', false, false).id;
});
afterEach(async () => {
  db.close();
  await cleanup();
});

const video = (id: string): NewDlVideo => ({
  id,
  accountId,
  collectionId,
  status: 'processing',
  sourceType: 'url',
  sourceUrl: 'https://example.com/a.mp4',
  filename: 'a.mp4',
  contentType: null,
  uploadSize: null,
  fps: 1,
  metadata: { scene: 12, take: 'b' },
  callbackUrl: null,
  idempotencyKey: null,
});

describe('datalake rows are parsed as read, never cast', () => {
  it('reads metadata back as the object written, and no row as undefined', () => {
    const videos = new DlVideos(db);
    expect(videos.insert(video('vid_1')).metadata).toEqual({ scene: 12, take: 'b' });
    expect(videos.byId('vid_none')).toBeUndefined();
  });

  it('refuses a row whose column does not hold what its schema says, instead of serving it', () => {
    const videos = new DlVideos(db);
    videos.insert(video('vid_2'));
    db.prepare("UPDATE dl_videos SET metadata = '[1, 2]' WHERE id = ?").run('vid_2');
    expect(() => videos.byId('vid_2')).toThrow(ZodError);
    expect(() => videos.inCollection(collectionId)).toThrow(ZodError);
  });

  it('refuses an operation whose error code is not one of the service codes', () => {
    const operations = new Operations(db);
    const op = operations.create({ accountId, kind: 'ingest', resource: 'vid_3' });
    db.prepare("UPDATE dl_operations SET error_code = 'made_up' WHERE id = ?").run(op.id);
    expect(() => operations.byId(op.id)).toThrow(ZodError);
  });
});
