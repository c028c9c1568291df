import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useBlobBackends } from '../../../test/helpers/blob-backends';
import { fileVideo } from '../../../test/helpers/dl-video';
import { SERVICE_SQL_ENGINES, useServiceSql } from '../../../test/helpers/service-sql';
import type { BlobStore } from '../storage/blob-store';
import { Collections } from './collections';
import { DlVideos } from './dl-videos';
import { Operations } from './operations';
import { STAGED_GRACE_MS, sweepStagedUploads } from './staged-sweep';
import { UploadStaging } from './upload-staging';

const stores = useBlobBackends();
const idRow = z.object({ id: z.number().int() });
const later = (): number => Date.now() + STAGED_GRACE_MS + 60_000;

describe.each(SERVICE_SQL_ENGINES)('orphan staged uploads on %s', (engine) => {
  const t = useServiceSql(engine);

  describe.each(stores.backends)('in the blob store on $name', ({ open }) => {
    let n = 0;
    let blobs: BlobStore;
    let staging: UploadStaging;
    let accountId: number;
    let videos: DlVideos;
    let operations: Operations;
    let collectionId: string;
    let sweep: (now: number) => Promise<string[]>;

    beforeEach(async () => {
      const dir = join(stores.dir, `${engine}-${n++}`);
      blobs = await open(dir);
      staging = new UploadStaging(blobs, join(dir, 'datalake-uploads'));
      await mkdir(staging.uploadDir, { recursive: true });
      const { sql } = t;
      accountId = idRow.parse(
        await sql.get("INSERT INTO accounts (name, webhook_secret, created_at) VALUES ('a', 's', 1) RETURNING id"),
      ).id;
      collectionId = (await new Collections(sql).create(accountId, 'c', false, false)).id;
      videos = new DlVideos(sql);
      operations = new Operations(sql);
      const dl = { videos, operations, ctx: { sql, blobs, log: pino({ level: 'silent' }) } };
      sweep = (now) => sweepStagedUploads(dl, now);
    });

    // Every test's account is the first of its fresh database, and the S3 store is one bucket for the whole file.
    afterEach(async () => {
      await blobs.deletePrefix(`reelsync-${accountId}`, 'datalake-uploads');
      await blobs.deletePrefix(`reelsync-${accountId}`, 'videos');
    });

    /** A received upload staged in the account's bucket, as a finished upload is before its ingest is queued. */
    const stage = async (id: string): Promise<void> => {
      await writeFile(staging.path(id), `bytes of ${id}`);
      await staging.stage({ id, account_id: accountId });
    };
    const staged = async (id: string): Promise<boolean> =>
      (await blobs.size(`reelsync-${accountId}`, staging.blob(id))) !== null;
    const video = async (id: string, withIngest: boolean): Promise<string | null> => {
      await videos.insert(fileVideo(id, accountId, collectionId));
      if (!withIngest) return null;
      const op = await operations.create({ accountId, kind: 'ingest', resource: id });
      await videos.setOperation(id, op.id);
      return op.id;
    };

    it('deletes staged uploads past the grace period that no running ingest reads, and keeps the others', async () => {
      await stage('VInorow'); // a crash between staging and queuing: no row
      await stage('VIqueued');
      await video('VIqueued', true);
      await stage('VIended'); // its ingest ended without removing it (a crash before remove)
      const ended = await video('VIended', true);
      await operations.finish(ended!, { error: null });
      await stage('VInoop'); // a row, no ingest queued (a finalize that crashed before queuing)
      await video('VInoop', false);

      expect(await sweep(Date.now())).toEqual([]); // all within the grace period
      for (const id of ['VInorow', 'VIqueued', 'VIended', 'VInoop']) expect(await staged(id)).toBe(true);

      const removed = await sweep(later());
      const bucket = `reelsync-${accountId}`;
      expect(removed.sort()).toEqual(
        ['VIended', 'VInoop', 'VInorow'].map((id) => `${bucket}/datalake-uploads/${id}.bin`),
      );
      expect(await staged('VIqueued')).toBe(true);
      for (const id of ['VInorow', 'VIended', 'VInoop']) expect(await staged(id)).toBe(false);
      expect(await sweep(later())).toEqual([]);
    });

    it('counts the age from staging, not from the last write of the received file', async () => {
      await writeFile(staging.path('VIold'), 'written long before the finalize');
      const twoHoursAgo = new Date(Date.now() - 2 * STAGED_GRACE_MS);
      await utimes(staging.path('VIold'), twoHoursAgo, twoHoursAgo);
      await staging.stage({ id: 'VIold', account_id: accountId });
      expect(await sweep(Date.now())).toEqual([]);
      expect(await staged('VIold')).toBe(true);
    });

    it('leaves other blobs of the bucket alone', async () => {
      const other = join(stores.dir, `other-${n}`);
      await writeFile(other, 'an original');
      await blobs.adopt(`reelsync-${accountId}`, 'videos/VIkeep/original.mp4', other);
      await stage('VIgone');
      expect(await sweep(later())).toHaveLength(1);
      expect(await blobs.size(`reelsync-${accountId}`, 'videos/VIkeep/original.mp4')).toBe('an original'.length);
    });
  });
});
