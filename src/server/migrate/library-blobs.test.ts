import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { LocalBlobStore } from '../storage/local-blob-store';
import { copyBlobs, LibraryBytes, verifyBlobs, type LibraryBlob } from './library-blobs';

const BUCKET = 'reelsync-1';

describe('copyBlobs and verifyBlobs: each blob the team backend needs, whole and with its bytes', () => {
  let folder: { dir: string; cleanup: () => Promise<void> };
  let library: LocalBlobStore;
  let target: LocalBlobStore;
  let received: string;

  beforeEach(async () => {
    folder = await tempDir();
    library = new LocalBlobStore(join(folder.dir, 'library'));
    target = new LocalBlobStore(join(folder.dir, 'target'));
    await mkdir(join(folder.dir, 'uploads'));
    received = join(folder.dir, 'uploads', 'VIold.bin');
  });
  afterEach(async () => {
    await folder.cleanup();
  });

  const put = async (store: LocalBlobStore, blob: string, text: string): Promise<void> => {
    const file = join(folder.dir, `put-${Math.random()}`);
    await writeFile(file, text);
    await store.adopt(BUCKET, blob, file);
  };
  const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

  /** A datalake original (no SHA-256 recorded), a staged upload, an unstaged one (a received file), a poster. */
  const blobs = async (): Promise<LibraryBlob[]> => {
    await put(library, 'videos/VIa/a.mp4', 'datalake original');
    await put(library, 'datalake-uploads/VIb.bin', 'staged upload');
    await writeFile(received, 'received before staging');
    await put(library, 'posters/VIa.jpg', 'poster');
    const common = { bucket: BUCKET, checksum: { from: 'library' as const } };
    return [
      { ...common, blob: 'videos/VIa/a.mp4', kind: 'original', file: null },
      { ...common, blob: 'datalake-uploads/VIb.bin', kind: 'staged upload', file: null },
      { ...common, blob: 'datalake-uploads/VIold.bin', kind: 'staged upload', file: received },
      { bucket: BUCKET, blob: 'posters/VIa.jpg', kind: 'poster', file: null, checksum: null },
    ];
  };

  it('copies from the blob folder or the received file, skips what is there on a second run, and verifies', async () => {
    const list = await blobs();
    const bytes = new LibraryBytes(library);
    const first = await copyBlobs(list, bytes, target, () => {});
    expect(first).toMatchObject({ uploaded: 4, skipped: 0, missingInSource: [] });
    expect(await target.size(BUCKET, 'datalake-uploads/VIold.bin')).toBe('received before staging'.length);
    expect(await copyBlobs(list, bytes, target, () => {})).toMatchObject({ uploaded: 0, skipped: 4 });
    expect(await verifyBlobs(list, bytes, target)).toEqual([]);
  });

  it('catches other bytes of the same size against the library copy, the row, and nothing for a poster', async () => {
    const list = await blobs();
    const bytes = new LibraryBytes(library);
    await copyBlobs(list, bytes, target, () => {});
    await put(target, 'datalake-uploads/VIold.bin', 'RECEIVED before staging');
    await put(target, 'posters/VIa.jpg', 'POSTER');
    const recorded: LibraryBlob = {
      ...list[0]!,
      checksum: { from: 'row', sha256: sha('an original the row recorded') },
    };
    expect(await verifyBlobs([...list, recorded], bytes, target)).toEqual([
      `staged upload ${BUCKET}/datalake-uploads/VIold.bin: SHA-256 ${sha('RECEIVED before staging')} in the target, ` +
        `${sha('received before staging')} in the library`,
      `original ${BUCKET}/videos/VIa/a.mp4: SHA-256 ${sha('datalake original')} in the target, the videos row ` +
        `records ${sha('an original the row recorded')}`,
    ]);
  });

  it('names a staged upload missing on either side', async () => {
    const list = await blobs();
    const bytes = new LibraryBytes(library);
    const copied = await copyBlobs(list.slice(0, 2), bytes, target, () => {});
    expect(copied.uploaded).toBe(2);
    expect(await verifyBlobs(list.slice(2, 3), bytes, target)).toEqual([
      `staged upload ${BUCKET}/datalake-uploads/VIold.bin: missing in the target`,
    ]);
    const gone: LibraryBlob = { ...list[2]!, file: join(folder.dir, 'uploads', 'VIgone.bin') };
    expect(await verifyBlobs([gone], bytes, target)).toEqual([
      `staged upload ${BUCKET}/datalake-uploads/VIold.bin: missing in the library's own folder`,
    ]);
  });
});
