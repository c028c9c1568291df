import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fileVideo } from '../../../test/helpers/dl-video';
import { useServiceSql } from '../../../test/helpers/service-sql';
import { tempDir } from '../../../test/helpers/temp';
import { Collections } from '../datalake/collections';
import { DlVideos, type SourceType } from '../datalake/dl-videos';
import { Operations } from '../datalake/operations';
import { UploadStaging } from '../datalake/upload-staging';
import { LocalBlobStore } from '../storage/local-blob-store';
import { pendingUploads } from './pending-uploads';

const idRow = z.object({ id: z.number().int() });

describe('pendingUploads: what a library holds for interface B uploads its rows do not carry', () => {
  const t = useServiceSql('sqlite');
  let folder: { dir: string; cleanup: () => Promise<void> };
  let staging: UploadStaging;
  let local: LocalBlobStore;
  let accountId: number;
  let collectionId: string;
  let videos: DlVideos;
  let operations: Operations;

  beforeEach(async () => {
    folder = await tempDir();
    local = new LocalBlobStore(join(folder.dir, 'blobs'));
    staging = new UploadStaging(local, join(folder.dir, 'datalake-uploads'));
    await mkdir(staging.uploadDir, { recursive: true });
    accountId = idRow.parse(
      await t.sql.get("INSERT INTO accounts (name, webhook_secret, created_at) VALUES ('a', 's', 1) RETURNING id"),
    ).id;
    collectionId = (await new Collections(t.sql).create(accountId, 'c', false, false)).id;
    videos = new DlVideos(t.sql);
    operations = new Operations(t.sql);
  });
  afterEach(async () => {
    await folder.cleanup();
  });

  /** A datalake video with its ingest queued; `bytes` says where its upload is. */
  const queued = async (id: string, bytes: 'staged' | 'received' | 'nowhere', sourceType: SourceType = 'file') => {
    await videos.insert({ ...fileVideo(id, accountId, collectionId), sourceType });
    const op = await operations.create({ accountId, kind: 'ingest', resource: id });
    await videos.setOperation(id, op.id);
    if (bytes !== 'nowhere') await writeFile(staging.path(id), `bytes of ${id}`);
    if (bytes === 'staged') await staging.stage({ id, account_id: accountId });
    return op.id;
  };

  it('lists the uploads queued ingests still need, from the staged blob or the received file, and those lost', async () => {
    await queued('VIstaged', 'staged');
    await queued('VIreceived', 'received');
    await queued('VIlost', 'nowhere');
    await queued('VIurl', 'nowhere', 'url'); // fetched from its link again
    const ended = await queued('VIended', 'staged'); // a leftover the staged sweep deletes: not needed
    await operations.finish(ended, { error: null });
    await queued('VIstored', 'staged'); // its ingest stored the original already (crashed before removing the upload)
    await t.sql.run("UPDATE dl_videos SET library_video_id = 7 WHERE id = 'VIstored'");

    const pending = await pendingUploads(t.sql, local, staging);
    const bucket = `reelsync-${accountId}`;
    expect(pending.staged).toEqual([
      {
        bucket,
        blob: 'datalake-uploads/VIreceived.bin',
        kind: 'staged upload',
        file: staging.path('VIreceived'),
        checksum: { from: 'library' },
      },
      {
        bucket,
        blob: 'datalake-uploads/VIstaged.bin',
        kind: 'staged upload',
        file: null,
        checksum: { from: 'library' },
      },
    ]);
    expect(pending.lost).toEqual(['VIlost']);
    expect(pending.sessions).toEqual([]);
  });

  it('names resumable sessions still receiving bytes, with what they received', async () => {
    const session = (id: string, uploadSize: number) =>
      videos.insert({
        ...fileVideo(id, accountId, collectionId),
        status: 'uploading',
        sourceType: 'resumable',
        uploadSize,
      });
    await session('VIopen', 1000);
    await writeFile(staging.path('VIopen'), Buffer.alloc(400));
    await session('VIempty', 50);
    const pending = await pendingUploads(t.sql, local, staging);
    expect(pending.sessions).toEqual([
      { videoId: 'VIempty', received: 0, size: 50 },
      { videoId: 'VIopen', received: 400, size: 1000 },
    ]);
    expect(pending.staged).toEqual([]);
  });
});
