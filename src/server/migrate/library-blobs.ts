import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { unreachable } from '../../shared/errors';
import type { BlobStore } from '../storage/blob-store';
import type { Sql } from '../storage/sql';

/**
 * How the verification checks a copied blob beyond its size: against the SHA-256 its videos row records, against the
 * SHA-256 of the library's own bytes (no row records one), or not at all (posters and keyframes, which indexing makes).
 */
export type BlobChecksum = { from: 'row'; sha256: string } | { from: 'library' } | null;

/**
 * A blob the team backend needs: an original, a poster or a keyframe a row names, or an upload whose ingest is queued
 * and has not stored it yet (interface B stages it as `datalake-uploads/<video>.bin` in the account's bucket).
 */
export interface LibraryBlob {
  bucket: string;
  blob: string;
  kind: 'original' | 'poster' | 'keyframe' | 'staged upload';
  /** The file holding the bytes when the library's blob folder does not (an upload queued before uploads were staged). */
  file: string | null;
  checksum: BlobChecksum;
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
    // A datalake ingest stores its original without a SHA-256 (''): the library's own bytes are the reference.
    ...originals.map(({ bucket, blob, sha256 }) => ({
      bucket,
      blob,
      kind: 'original' as const,
      file: null,
      checksum: sha256 ? { from: 'row' as const, sha256 } : { from: 'library' as const },
    })),
    ...posters.map((b) => ({ ...b, kind: 'poster' as const, file: null, checksum: null })),
    ...keyframes.map((b) => ({ ...b, kind: 'keyframe' as const, file: null, checksum: null })),
  ];
}

const KIND_NAMES: Record<LibraryBlob['kind'], [string, string]> = {
  original: ['original', 'originals'],
  poster: ['poster', 'posters'],
  keyframe: ['keyframe', 'keyframes'],
  'staged upload': ['upload staged for its queued ingest', 'uploads staged for their queued ingest'],
};

/** "2 originals, 1 poster, 0 keyframes, 1 upload staged for its queued ingest". */
export function blobCounts(blobs: LibraryBlob[]): string {
  return Object.entries(KIND_NAMES)
    .map(([kind, [one, many]]) => {
      const n = blobs.filter((b) => b.kind === kind).length;
      return `${n} ${n === 1 ? one : many}`;
    })
    .join(', ');
}

/** The library's own bytes of a blob: in its blob folder, or the file an unstaged upload still is. */
export class LibraryBytes {
  constructor(private readonly blobs: BlobStore) {}

  async size(b: LibraryBlob): Promise<number | null> {
    if (b.file === null) return this.blobs.size(b.bucket, b.blob);
    const info = await stat(b.file).catch(() => null);
    return info?.isFile() ? info.size : null;
  }

  read(b: LibraryBlob): Readable {
    return b.file === null ? this.blobs.read(b.bucket, b.blob) : createReadStream(b.file);
  }
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
  from: LibraryBytes,
  to: BlobStore,
  progress: (p: BlobProgress) => void,
): Promise<BlobsCopied> {
  const sizes = await Promise.all(blobs.map((b) => from.size(b)));
  const totalBytes = sizes.reduce<number>((sum, s) => sum + (s ?? 0), 0);
  const result: BlobsCopied = { uploaded: 0, skipped: 0, bytes: 0, missingInSource: [] };
  for (const [i, b] of blobs.entries()) {
    const size = sizes[i] ?? null;
    if (size === null) {
      result.missingInSource.push(`${b.bucket}/${b.blob}`);
    } else if ((await to.size(b.bucket, b.blob)) === size) {
      result.skipped++;
    } else {
      await to.writeFrom(b.bucket, b.blob, from.read(b));
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

/** What differs for each blob in the target: missing, wrong size, or a SHA-256 other than the expected one. */
export async function verifyBlobs(blobs: LibraryBlob[], from: LibraryBytes, to: BlobStore): Promise<string[]> {
  const problems: string[] = [];
  for (const b of blobs) {
    const name = `${b.kind} ${b.bucket}/${b.blob}`;
    const expected = await from.size(b);
    const stored = await to.size(b.bucket, b.blob);
    if (expected === null) problems.push(`${name}: missing in the library's own folder`);
    else if (stored === null) problems.push(`${name}: missing in the target`);
    else if (stored !== expected) problems.push(`${name}: ${stored} bytes in the target, ${expected} in the library`);
    else if (b.checksum !== null) {
      const got = await sha256Of(to.read(b.bucket, b.blob));
      const problem = await checksumProblem(b.checksum, got, from, b);
      if (problem) problems.push(`${name}: ${problem}`);
    }
  }
  return problems;
}

async function checksumProblem(
  checksum: NonNullable<BlobChecksum>,
  got: string,
  from: LibraryBytes,
  b: LibraryBlob,
): Promise<string | null> {
  switch (checksum.from) {
    case 'row':
      return got === checksum.sha256 ? null : `SHA-256 ${got} in the target, the videos row records ${checksum.sha256}`;
    case 'library': {
      const mine = await sha256Of(from.read(b));
      return got === mine ? null : `SHA-256 ${got} in the target, ${mine} in the library`;
    }
    default:
      throw unreachable(checksum);
  }
}

async function sha256Of(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
