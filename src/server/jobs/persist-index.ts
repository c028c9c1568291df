import { z } from 'zod';
import type { ServiceContext } from '../context';
import type { AnalyzeResult } from '../indexer/analyze-video';
import type { VideoRow } from '../library/videos';
import { descriptorToBlob } from '../indexer/analyzers/face-match';
import { captionContent } from '../indexer/caption';
import { INDEX_RULES_VERSION } from '../indexer/index-rules';
import { lexicalVector } from '../search/query/query-text';
import { videoFullText } from '../search/segment-index';
import { carryVectors, keyframesToCarry, vectorsOf } from './carried-embeddings';
import type { Sql } from '../storage/sql';

const idRowSchema = z.object({ id: z.number().int() });
const blobRowSchema = z.object({ blob: z.string().nullable() });

/**
 * Moves keyframes and poster into the blob store, then writes segments, full-text rows, words and faces and marks the
 * video PARSE, stamped with the rules it was indexed under (INDEX_RULES_VERSION), in one transaction; `commitWith` runs
 * first in that transaction (the index job holds its lease there and queues the callback), so the index, and what
 * must follow it, commit together or not at all.
 *
 * A re-index of an indexed video names a `generation`: its keyframes and poster go beside the ones the current index
 * shows (keyframes/<videoNo>/<generation>/, posters/<videoNo>/<generation>.jpg), so the old index stays whole until
 * the transaction replaces it; the old keyframes and poster are deleted after it commits. A new keyframe that is byte for
 * byte an old one keeps that keyframe's semantic vectors (carried-embeddings.ts).
 */
export async function persistIndex(
  ctx: ServiceContext,
  row: VideoRow,
  result: AnalyzeResult,
  commitWith: (tx: Sql) => Promise<void>,
  generation?: string,
): Promise<void> {
  const folder = generation ? `${row.video_no}/${generation}` : row.video_no;
  // Before the keyframes are moved into the store: which of them the current index already holds, with vectors.
  const toCarry = generation
    ? await keyframesToCarry(
        ctx.sql,
        ctx.blobs,
        row.bucket,
        row.id,
        result.segments.map((s) => s.keyframePath),
      )
    : new Map<number, number>();
  const keyframeBlobs: string[] = [];
  for (const seg of result.segments) {
    const blob = `keyframes/${folder}/${seg.index}.jpg`;
    await ctx.blobs.adopt(row.bucket, blob, seg.keyframePath);
    keyframeBlobs.push(blob);
  }
  const posterBlob = generation ? `posters/${folder}.jpg` : `posters/${row.video_no}/poster.jpg`;
  await ctx.blobs.adopt(row.bucket, posterBlob, result.posterPath);
  const replaced: string[] = [];

  const names = [
    row.video_name,
    row.original_name.replace(/[._-]+/g, ' '),
    (await ctx.folders.nameOf(row.folder_id)) ?? '',
    row.camera_model ?? '',
    ...(await ctx.videos.tags(row.id)),
  ].join(' ');

  await ctx.sql.transaction(async (tx) => {
    await commitWith(tx);
    if (generation) replaced.push(...(await blobsOf(tx, row.id)));
    const oldVectors = await vectorsOf(tx, toCarry.values());
    const newIdOf = new Map<number, number>();
    await videoFullText.unindex(tx, row.account_id, row.id);
    await tx.run('DELETE FROM segments WHERE video_id = ?', row.id);
    await tx.run('DELETE FROM transcript_words WHERE video_id = ?', row.id);
    await tx.run('DELETE FROM faces WHERE video_id = ?', row.id);
    await videoFullText.prepare(tx, row.account_id);
    for (const [i, seg] of result.segments.entries()) {
      const labelText = seg.labels.map((l) => l.label).join(' ');
      // The "nothing recognised" caption is shown, never indexed: its words are not what the segment shows.
      const caption = captionContent(seg.caption);
      const inserted = await tx.get(
        `INSERT INTO segments (video_id, idx, start_time, end_time, keyframe_blob, caption, transcript, ocr_text, labels, caption_vector, shot_quality)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
        row.id,
        seg.index,
        seg.start,
        seg.end,
        keyframeBlobs[i] ?? null,
        seg.caption,
        seg.transcript,
        seg.ocrText,
        JSON.stringify(seg.labels),
        vectorBytes(lexicalVector(caption)),
        seg.shotQuality,
      );
      const { id } = idRowSchema.parse(inserted);
      const oldId = toCarry.get(i);
      if (oldId !== undefined) newIdOf.set(oldId, id);
      const text = { caption, transcript: seg.transcript, ocrText: seg.ocrText, labels: labelText, names };
      const trigram = [caption, seg.transcript, seg.ocrText, labelText, names].join(' ');
      await videoFullText.index(tx, row.account_id, id, text, trigram);
      for (const face of seg.faces)
        await tx.run(
          'INSERT INTO faces (video_id, segment_idx, descriptor, model, box, score) VALUES (?, ?, ?, ?, ?, ?)',
          row.id,
          seg.index,
          descriptorToBlob(face.descriptor),
          face.model,
          JSON.stringify(face.box),
          face.score,
        );
    }
    await carryVectors(tx, oldVectors, newIdOf);
    for (const [i, w] of result.words.entries())
      await tx.run(
        'INSERT INTO transcript_words (video_id, idx, word, start_time, end_time) VALUES (?, ?, ?, ?, ?)',
        row.id,
        i,
        w.word,
        w.start,
        w.end,
      );
    await tx.run(
      `UPDATE videos SET status = 'PARSE', progress = 100, fail_reason = NULL, poster_blob = ?, missing_engines = ?, indexed_at = ?,
         index_rules = ?, duration = COALESCE(duration, ?), blob = CASE WHEN retain_original = 1 THEN blob ELSE NULL END
       WHERE id = ?`,
      posterBlob,
      JSON.stringify(result.missingEngines),
      Date.now(),
      INDEX_RULES_VERSION,
      result.durationSeconds,
      row.id,
    );
  });
  if (!row.retain_original && row.blob) await ctx.blobs.deletePrefix(row.bucket, `videos/${row.video_no}`);
  const kept = new Set([...keyframeBlobs, posterBlob]);
  for (const blob of replaced.filter((b) => !kept.has(b)))
    await ctx.blobs
      .delete(row.bucket, blob)
      .catch((err: unknown) =>
        ctx.log.warn({ err, videoNo: row.video_no, blob }, 'could not delete a replaced keyframe'),
      );
}

/** The keyframes and poster the video's index shows now. */
async function blobsOf(tx: Sql, videoId: number): Promise<string[]> {
  const rows = await tx.all(
    `SELECT keyframe_blob AS blob FROM segments WHERE video_id = ?
     UNION ALL SELECT poster_blob AS blob FROM videos WHERE id = ?`,
    videoId,
    videoId,
  );
  return rows.flatMap((r) => blobRowSchema.parse(r).blob ?? []);
}

function vectorBytes(vector: Float32Array): Uint8Array {
  return new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength);
}
