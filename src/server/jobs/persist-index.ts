import type { ServiceContext } from '../context';
import type { AnalyzeResult } from '../indexer/analyze-video';
import type { VideoRow } from '../library/videos';
import { descriptorToBlob } from '../indexer/analyzers/face-match';
import { captionContent } from '../indexer/caption';
import { lexicalVector } from '../search/query-text';
import { indexSegment, unindexVideo } from '../search/segment-index';

/** Moves keyframes and poster into the blob store and writes segments, full-text rows, words and faces in one transaction. */
export async function persistIndex(ctx: ServiceContext, row: VideoRow, result: AnalyzeResult): Promise<void> {
  const keyframeBlobs: string[] = [];
  for (const seg of result.segments) {
    const blob = `keyframes/${row.video_no}/${seg.index}.jpg`;
    await ctx.blobs.adopt(row.bucket, blob, seg.keyframePath);
    keyframeBlobs.push(blob);
  }
  const posterBlob = `posters/${row.video_no}/poster.jpg`;
  await ctx.blobs.adopt(row.bucket, posterBlob, result.posterPath);

  const names = [
    row.video_name,
    row.original_name.replace(/[._-]+/g, ' '),
    (await ctx.folders.nameOf(row.folder_id)) ?? '',
    row.camera_model ?? '',
    ...(await ctx.videos.tags(row.id)),
  ].join(' ');

  const { db } = ctx;
  db.transaction(() => {
    unindexVideo(db, row.account_id, row.id);
    db.prepare('DELETE FROM segments_trigram WHERE rowid IN (SELECT id FROM segments WHERE video_id = ?)').run(row.id);
    db.prepare('DELETE FROM segments WHERE video_id = ?').run(row.id);
    db.prepare('DELETE FROM transcript_words WHERE video_id = ?').run(row.id);
    db.prepare('DELETE FROM faces WHERE video_id = ?').run(row.id);
    const insertSegment = db.prepare(
      `INSERT INTO segments (video_id, idx, start_time, end_time, keyframe_blob, caption, transcript, ocr_text, labels, caption_vector)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertTrigram = db.prepare('INSERT INTO segments_trigram (rowid, body) VALUES (?, ?)');
    const insertFace = db.prepare(
      'INSERT INTO faces (video_id, segment_idx, descriptor, model, box, score) VALUES (?, ?, ?, ?, ?, ?)',
    );
    result.segments.forEach((seg, i) => {
      const labelText = seg.labels.map((l) => l.label).join(' ');
      // The "nothing recognised" caption is shown, never indexed: its words are not what the segment shows.
      const caption = captionContent(seg.caption);
      const vector = Buffer.from(lexicalVector(caption).buffer);
      const id = Number(
        insertSegment.run(
          row.id,
          seg.index,
          seg.start,
          seg.end,
          keyframeBlobs[i] ?? null,
          seg.caption,
          seg.transcript,
          seg.ocrText,
          JSON.stringify(seg.labels),
          vector,
        ).lastInsertRowid,
      );
      indexSegment(ctx.searchCache, row.account_id, id, {
        caption,
        transcript: seg.transcript,
        ocrText: seg.ocrText,
        labels: labelText,
        names,
      });
      insertTrigram.run(id, [caption, seg.transcript, seg.ocrText, labelText, names].join(' '));
      for (const face of seg.faces)
        insertFace.run(
          row.id,
          seg.index,
          descriptorToBlob(face.descriptor),
          face.model,
          JSON.stringify(face.box),
          face.score,
        );
    });
    const insertWord = db.prepare(
      'INSERT INTO transcript_words (video_id, idx, word, start_time, end_time) VALUES (?, ?, ?, ?, ?)',
    );
    result.words.forEach((w, i) => insertWord.run(row.id, i, w.word, w.start, w.end));
    db.prepare(
      `UPDATE videos SET status = 'PARSE', progress = 100, fail_reason = NULL, poster_blob = ?, missing_engines = ?, indexed_at = ?,
         duration = COALESCE(duration, ?), blob = CASE WHEN retain_original = 1 THEN blob ELSE NULL END
       WHERE id = ?`,
    ).run(posterBlob, JSON.stringify(result.missingEngines), Date.now(), result.durationSeconds, row.id);
  })();
  if (!row.retain_original && row.blob) await ctx.blobs.deletePrefix(row.bucket, `videos/${row.video_no}`);
}
