import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { BlobStore } from '../storage/blob-store';
import type { Sql } from '../storage/sql';

/** A blob the library's rows name: an original (with the SHA-256 its videos row records), a poster or a keyframe. */
export interface LibraryBlob {
  bucket: string;
  blob: string;
  kind: 'original' | 'poster' | 'keyframe';
  sha256: string | null;
}

const Original = z.object({ bucket: z.string(), blob: z.string(), sha256: z.string() });
const Other = z.object({ bucket: z.string(), blob: z.string() });

/** Every blob the rows reference, in a stable order. */
export async function libraryBlobs(source: Sql): Promise<LibraryBlob[]> {
  const originals = z
    .array(Original)
    .parse(await source.all('SELECT bucket, blob, sha256 FROM videos WHERE blob IS NOT NULL ORDER BY id'));
  const posters = z
    .array(Other)
    .parse(
      await source.all('SELECT bucket, poster_blob AS blob FROM videos WHERE poster_blob IS NOT NULL ORDER BY id'),
    );
  const keyframes = z.array(Other).parse(
    await source.all(
      `SELECT v.bucket, s.keyframe_blob AS blob FROM segments s JOIN videos v ON v.id = s.video_id
       WHERE s.keyframe_blob IS NOT NULL ORDER BY s.id`,
    ),
  );
  return [
    ...originals.map((b) => ({ ...b, kind: 'original' as const })),
    ...posters.map((b) => ({ ...b, kind: 'poster' as const, sha256: null })),
    ...keyframes.map((b) => ({ ...b, kind: 'keyframe' as const, sha256: null })),
  ];
}

export interface BlobProgress {
  blobs: number;
  bytes: number;
  totalBytes: number;
}

export interface BlobsCopied {
  uploaded: number;
  skipped: number;
  bytes: number;
  /** Blobs the rows name but the library's folder lacks (`bucket/blob`). */
  missingInSource: string[];
}

/**
 * Streams each blob from the library's folder to the target (never whole in memory), skipping one the target already
 * has at the right size, and checks the size once stored.
 */
export async function copyBlobs(
  blobs: LibraryBlob[],
  from: BlobStore,
  to: BlobStore,
  progress: (p: BlobProgress) => void,
): Promise<BlobsCopied> {
  const sizes = await Promise.all(blobs.map((b) => from.size(b.bucket, b.blob)));
  const totalBytes = sizes.reduce<number>((sum, s) => sum + (s ?? 0), 0);
  const result: BlobsCopied = { uploaded: 0, skipped: 0, bytes: 0, missingInSource: [] };
  for (const [i, b] of blobs.entries()) {
    const size = sizes[i] ?? null;
    if (size === null) {
      result.missingInSource.push(`${b.bucket}/${b.blob}`);
    } else if ((await to.size(b.bucket, b.blob)) === size) {
      result.skipped++;
    } else {
      await to.writeFrom(b.bucket, b.blob, from.read(b.bucket, b.blob));
      const stored = await to.size(b.bucket, b.blob);
      if (stored !== size)
        throw new Error(`${b.bucket}/${b.blob}: stored ${stored ?? 'nothing'}, expected ${size} bytes`);
      result.uploaded++;
    }
    result.bytes += size ?? 0;
    progress({ blobs: i + 1, bytes: result.bytes, totalBytes });
  }
  return result;
}

/** What differs for each blob in the target: missing, wrong size, or (originals) a SHA-256 other than the row's. */
export async function verifyBlobs(blobs: LibraryBlob[], from: BlobStore, to: BlobStore): Promise<string[]> {
  const problems: string[] = [];
  for (const b of blobs) {
    const name = `${b.kind} ${b.bucket}/${b.blob}`;
    const expected = await from.size(b.bucket, b.blob);
    const stored = await to.size(b.bucket, b.blob);
    if (expected === null) problems.push(`${name}: missing in the library's own folder`);
    else if (stored === null) problems.push(`${name}: missing in the target`);
    else if (stored !== expected) problems.push(`${name}: ${stored} bytes in the target, ${expected} in the library`);
    else if (b.sha256 !== null) {
      const hash = createHash('sha256');
      for await (const chunk of to.read(b.bucket, b.blob)) hash.update(chunk as Buffer);
      const got = hash.digest('hex');
      if (got !== b.sha256) problems.push(`${name}: SHA-256 ${got} in the target, the videos row records ${b.sha256}`);
    }
  }
  return problems;
}
