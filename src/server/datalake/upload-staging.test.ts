import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { useBlobBackends } from '../../../test/helpers/blob-backends';
import type { BlobStore } from '../storage/blob-store';
import { UploadStaging } from './upload-staging';

const stores = useBlobBackends();

describe.each(stores.backends)('upload staging on $name', ({ open }) => {
  const bytes = Buffer.from('a complete upload\n'.repeat(1000));
  let n = 0;
  let blobs: BlobStore;
  let staging: UploadStaging;
  let upload: { id: string; account_id: number };

  beforeEach(async () => {
    const dir = join(stores.dir, `case-${n++}`);
    blobs = await open(dir);
    staging = new UploadStaging(blobs, join(dir, 'datalake-uploads'));
    await mkdir(staging.uploadDir, { recursive: true });
    upload = { id: `VI${n}`, account_id: 7 };
    await writeFile(staging.path(upload.id), bytes);
  });

  it('stages a received file in the bucket, opens it for the ingest and removes it', async () => {
    await staging.stage(upload);
    expect(existsSync(staging.path(upload.id))).toBe(false);
    expect(await blobs.size('reelsync-7', `datalake-uploads/${upload.id}.bin`)).toBe(bytes.length);
    const file = await staging.open(upload);
    expect(file && (await readFile(file.path))).toEqual(bytes);
    await file?.release();
    await staging.remove(upload);
    expect(await blobs.size('reelsync-7', `datalake-uploads/${upload.id}.bin`)).toBeNull();
    expect(await staging.open(upload)).toBeNull();
  });

  it('puts a staged upload back where it was received, bytes intact, the blob gone', async () => {
    await staging.stage(upload);
    await staging.unstage(upload);
    expect(await readFile(staging.path(upload.id))).toEqual(bytes);
    expect(await blobs.size('reelsync-7', `datalake-uploads/${upload.id}.bin`)).toBeNull();
  });

  it('opens an upload queued before staging where it was received', async () => {
    const file = await staging.open(upload);
    expect(file?.path).toBe(staging.path(upload.id));
    await file?.release();
    expect(existsSync(staging.path(upload.id))).toBe(true);
  });
});
