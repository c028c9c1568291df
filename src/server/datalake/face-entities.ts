import { descriptorFromBlob, samePerson, type ModelDescriptor } from '../indexer/analyzers/face-match';
import type { Db } from '../storage/db';
import { newId } from './public-id';

export interface FaceEntity {
  entity_id: string;
  faces: number;
  first_seen: number;
  last_seen: number;
  best_score: number;
}

interface FaceRow {
  descriptor: Buffer;
  model: string;
  score: number;
  start_time: number;
  end_time: number;
}

/**
 * Groups the faces the indexer found in one video into entities (greedy, against each entity's first face), so the
 * face_recognition flag yields "who appears when" per video. Two faces join only by their model's own same-person rule
 * (face-match.ts), and faces of different models never join (a video indexed before face-api holds faceres ones).
 * Returns the entities written.
 */
export function deriveFaceEntities(db: Db, videoId: string, libraryVideoId: number): FaceEntity[] {
  const rows = db
    .prepare(
      `SELECT f.descriptor, f.model, f.score, s.start_time, s.end_time FROM faces f
       JOIN segments s ON s.video_id = f.video_id AND s.idx = f.segment_idx WHERE f.video_id = ? ORDER BY s.start_time`,
    )
    .all(libraryVideoId) as FaceRow[];
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
  db.transaction(() => {
    db.prepare('DELETE FROM dl_face_entities WHERE video_id = ?').run(videoId);
    const insert = db.prepare(
      'INSERT INTO dl_face_entities (video_id, entity_id, faces, first_seen, last_seen, best_score) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (const e of entities) insert.run(videoId, e.entity_id, e.faces, e.first_seen, e.last_seen, e.best_score);
  })();
  return entities;
}

export function faceEntities(db: Db, videoId: string): FaceEntity[] {
  return db
    .prepare(
      'SELECT entity_id, faces, first_seen, last_seen, best_score FROM dl_face_entities WHERE video_id = ? ORDER BY first_seen',
    )
    .all(videoId) as FaceEntity[];
}
