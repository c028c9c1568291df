import { z } from 'zod';
import { descriptorFromBlob, samePerson, type ModelDescriptor } from '../indexer/analyzers/face-match';
import type { Sql } from '../storage/sql';
import { parsedRows } from '../storage/rows';
import { newId } from './public-id';

/** A row of `dl_face_entities` (without its video_id), parsed as read; also what the record lists. */
const faceEntityRowSchema = z.object({
  entity_id: z.string(),
  faces: z.number().int(),
  first_seen: z.number(),
  last_seen: z.number(),
  best_score: z.number(),
});
export type FaceEntity = z.output<typeof faceEntityRowSchema>;

/** A face the indexer stored (`faces`), with its segment's times. */
const faceRowSchema = z.object({
  descriptor: z.instanceof(Buffer),
  model: z.string(),
  score: z.number(),
  start_time: z.number(),
  end_time: z.number(),
});

/**
 * Groups the faces the indexer found in one video into entities (greedy, against each entity's first face), so the
 * face_recognition flag yields "who appears when" per video. Two faces join only by their model's own same-person rule
 * (face-match.ts), and faces of different models never join (a video indexed before face-api holds faceres ones).
 * Returns the entities written.
 */
export async function deriveFaceEntities(sql: Sql, videoId: string, libraryVideoId: number): Promise<FaceEntity[]> {
  const rows = parsedRows(
    faceRowSchema,
    await sql.all(
      `SELECT f.descriptor, f.model, f.score, s.start_time, s.end_time FROM faces f
       JOIN segments s ON s.video_id = f.video_id AND s.idx = f.segment_idx WHERE f.video_id = ?
       ORDER BY s.start_time, f.segment_idx, f.id`,
      libraryVideoId,
    ),
  );
  const groups: { anchor: ModelDescriptor; entity: FaceEntity }[] = [];
  for (const r of rows) {
    const d: ModelDescriptor = { model: r.model, descriptor: descriptorFromBlob(r.descriptor) };
    const match = groups.find((g) => samePerson(g.anchor, d));
    if (match) {
      const e = match.entity;
      e.faces += 1;
      e.last_seen = Math.max(e.last_seen, r.end_time);
      e.best_score = Math.max(e.best_score, r.score);
    } else {
      groups.push({
        anchor: d,
        entity: {
          entity_id: newId('face'),
          faces: 1,
          first_seen: r.start_time,
          last_seen: r.end_time,
          best_score: r.score,
        },
      });
    }
  }
  const entities = groups.map((g) => g.entity);
  await sql.transaction(async (tx) => {
    await tx.run('DELETE FROM dl_face_entities WHERE video_id = ?', videoId);
    for (const e of entities) {
      await tx.run(
        'INSERT INTO dl_face_entities (video_id, entity_id, faces, first_seen, last_seen, best_score) VALUES (?, ?, ?, ?, ?, ?)',
        videoId,
        e.entity_id,
        e.faces,
        e.first_seen,
        e.last_seen,
        e.best_score,
      );
    }
  });
  return entities;
}

export async function faceEntities(sql: Sql, videoId: string): Promise<FaceEntity[]> {
  return parsedRows(
    faceEntityRowSchema,
    await sql.all(
      'SELECT entity_id, faces, first_seen, last_seen, best_score FROM dl_face_entities WHERE video_id = ? ORDER BY first_seen, entity_id',
      videoId,
    ),
  );
}
