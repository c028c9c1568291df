import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { bucketOf } from '../context';
import type { UploadStaging } from '../datalake/upload-staging';
import type { BlobStore } from '../storage/blob-store';
import type { Sql } from '../storage/sql';
import type { LibraryBlob } from './library-blobs';

/** Interface B's uploads the rows alone do not carry. */
export interface PendingUploads {
  /**
   * Uploads whose ingest is queued or retrying and has not stored them as a library video yet: the ingest reads them
   * from the staged blob, so they are copied to the target under that name (an upload received before uploads were
   * staged is still a file of the data folder: it is copied to where the team server's ingest looks first).
   */
  staged: LibraryBlob[];
  /** Videos whose queued ingest has no upload anywhere in the library: it fails here as on the team server. */
  lost: string[];
  /** Resumable sessions still receiving bytes: their rows are copied, their bytes stay in the data folder. */
  sessions: { videoId: string; received: number; size: number }[];
}

const Waiting = z.object({ id: z.string(), account_id: z.number().int() });
const Session = z.object({ id: z.string(), upload_size: z.number().int().nullable() });

/** The library's unfinished interface B uploads; `staging` is the library's own (on its blob folder and data folder). */
export async function pendingUploads(source: Sql, local: BlobStore, staging: UploadStaging): Promise<PendingUploads> {
  // url ingests fetch from their link again; an upload's ingest that linked its library video has stored it as the
  // original (listed with the videos rows).
  const waiting = z.array(Waiting).parse(
    await source.all(
      `SELECT v.id, v.account_id FROM dl_videos v JOIN dl_operations o ON o.id = v.operation_id
       WHERE o.kind = 'ingest' AND o.done = 0 AND v.source_type <> 'url' AND v.library_video_id IS NULL
       ORDER BY v.id`,
    ),
  );
  const pending: PendingUploads = { staged: [], lost: [], sessions: [] };
  for (const video of waiting) {
    const bucket = bucketOf(video.account_id);
    const blob = staging.blob(video.id);
    const received = staging.path(video.id);
    const upload = (file: string | null): LibraryBlob => ({
      bucket,
      blob,
      kind: 'staged upload',
      file,
      checksum: { from: 'library' },
    });
    // Where the ingest looks: the staged blob first, then the file as received.
    if ((await local.size(bucket, blob)) !== null) pending.staged.push(upload(null));
    else if (await isFile(received)) pending.staged.push(upload(received));
    else pending.lost.push(video.id);
  }
  const sessions = z
    .array(Session)
    .parse(
      await source.all(
        "SELECT id, upload_size FROM dl_videos WHERE status = 'uploading' AND source_type = 'resumable' ORDER BY id",
      ),
    );
  for (const s of sessions) {
    const received = (await stat(staging.path(s.id)).catch(() => null))?.size ?? 0;
    pending.sessions.push({ videoId: s.id, received, size: s.upload_size ?? 0 });
  }
  return pending;
}

/** What the operator must know about uploads the copy cannot carry whole. */
export function pendingNotes(pending: PendingUploads, uploadDir: string): string[] {
  const notes = pending.lost.map(
    (id) =>
      `  warning: the queued ingest of datalake video ${id} has no upload in this library (neither staged nor in ` +
      `${uploadDir}): it fails on the team server as it would here`,
  );
  if (pending.sessions.length === 0) return notes;
  return [
    ...notes,
    `  warning: ${pending.sessions.length} resumable upload session(s) still receiving bytes: their rows are copied, ` +
      `not the bytes received so far (they stay in ${uploadDir}); on a team server that runs on another data folder ` +
      'each answers offset 0, and its client sends the file again from the start',
    ...pending.sessions.map((s) => `    session ${s.videoId}: ${s.received} of ${s.size} bytes received`),
  ];
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isFile() ?? false;
}
