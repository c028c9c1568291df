import { z } from 'zod';
import { CLIP_FORMATS, CLIP_MODES, CLIP_STATES } from '../../shared/contract/clips';
import type { Db } from '../store/database';

const jsonStrings = z.string().transform((s) => z.array(z.string()).parse(JSON.parse(s)));

export const clipRowSchema = z.object({
  id: z.number().int(),
  video_no: z.string(),
  video_name: z.string(),
  /** The editor's name for the clip; '' when none was given. */
  name: z.string(),
  source_path: z.string().nullable(),
  download_id: z.number().int().nullable(),
  start_s: z.number(),
  end_s: z.number(),
  handles_s: z.number(),
  mode: z.enum(CLIP_MODES),
  format: z.enum(CLIP_FORMATS),
  out_dir: z.string(),
  out_name: z.string().nullable(),
  path: z.string().nullable(),
  state: z.enum(CLIP_STATES),
  error: z.string().nullable(),
  duration_s: z.number().nullable(),
  fps: z.number().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  /** The clip file has an audio stream (probed after the cut); null when not known yet. */
  has_audio: z
    .number()
    .int()
    .nullable()
    .transform((n) => (n === null ? null : n === 1)),
  query: z.string(),
  search_type: z.string().nullable(),
  text: z.string(),
  score: z.number().nullable(),
  video_bucket: z.string().nullable(),
  video_blob: z.string().nullable(),
  keyframe_bucket: z.string().nullable(),
  keyframe_blob: z.string().nullable(),
  thumbnail_path: z.string().nullable(),
  tags: jsonStrings,
  notes: z.string(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type ClipRow = z.output<typeof clipRowSchema>;
export type ClipState = ClipRow['state'];

export interface NewClip {
  videoNo: string;
  videoName: string;
  name: string;
  start: number;
  end: number;
  handles: number;
  mode: ClipRow['mode'];
  format: ClipRow['format'];
  outDir: string;
  outName: string | null;
  query: string;
  searchType: string | null;
  text: string;
  score: number | null;
  video: { bucket: string; blob: string } | null;
  keyframe: { bucket: string; blob: string } | null;
  tags: string[];
  notes: string;
}

/** What a probe of the cut file tells about it. */
export interface ClipMedia {
  fps: number | null;
  width: number | null;
  height: number | null;
  hasAudio: boolean;
}

/** Typed queries over `clips` and its FTS index. */
export class ClipsStore {
  constructor(private readonly db: Db) {}

  create(c: NewClip, now = Date.now()): ClipRow {
    const row = this.db
      .prepare(
        `INSERT INTO clips (video_no, video_name, name, start_s, end_s, handles_s, mode, format, out_dir, out_name, state, query, search_type, text, score,
           video_bucket, video_blob, keyframe_bucket, keyframe_blob, tags, notes, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      )
      .get(
        c.videoNo,
        c.videoName,
        c.name.trim(),
        c.start,
        c.end,
        c.handles,
        c.mode,
        c.format,
        c.outDir,
        c.outName,
        c.query,
        c.searchType,
        c.text,
        c.score,
        c.video?.bucket ?? null,
        c.video?.blob ?? null,
        c.keyframe?.bucket ?? null,
        c.keyframe?.blob ?? null,
        JSON.stringify(uniqueTags(c.tags)),
        c.notes,
        now,
        now,
      );
    return clipRowSchema.parse(row);
  }

  get(id: number): ClipRow | undefined {
    const row = this.db.prepare('SELECT * FROM clips WHERE id = ?').get(id);
    return row ? clipRowSchema.parse(row) : undefined;
  }

  /** Newest first, optionally only clips carrying `tag` or of one video. */
  page(
    page: number,
    size: number,
    filter: { tag?: string; videoNo?: string } = {},
  ): { rows: ClipRow[]; total: number } {
    const where: string[] = [];
    const args: (string | number)[] = [];
    if (filter.tag) {
      where.push('EXISTS (SELECT 1 FROM json_each(clips.tags) WHERE value = ?)');
      args.push(filter.tag);
    }
    if (filter.videoNo) {
      where.push('video_no = ?');
      args.push(filter.videoNo);
    }
    const w = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = (this.db.prepare(`SELECT COUNT(*) AS n FROM clips ${w}`).get(...args) as { n: number }).n;
    const rows = this.db
      .prepare(`SELECT * FROM clips ${w} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`)
      .all(...args, size, (page - 1) * size)
      .map((r) => clipRowSchema.parse(r));
    return { rows, total };
  }

  byIds(ids: number[] | undefined): ClipRow[] {
    if (!ids)
      return this.db
        .prepare('SELECT * FROM clips ORDER BY created_at, id')
        .all()
        .map((r) => clipRowSchema.parse(r));
    const wanted = new Set(ids);
    const rows = ids.length
      ? this.db.prepare(`SELECT * FROM clips WHERE id IN (${ids.map(() => '?').join(',')})`).all(...ids)
      : [];
    const parsed = rows.map((r) => clipRowSchema.parse(r)).filter((r) => wanted.has(r.id));
    return ids.flatMap((id) => parsed.filter((r) => r.id === id));
  }

  /** Full-text search (FTS5, unicode61 without diacritics): every word of `text` must match, each as a prefix. Best first. */
  search(text: string, limit: number, offset = 0): ClipRow[] {
    const query = ftsQuery(text);
    if (!query) return [];
    return this.db
      .prepare(
        `SELECT clips.* FROM clips_fts JOIN clips ON clips.id = clips_fts.rowid WHERE clips_fts MATCH ? ORDER BY bm25(clips_fts), clips.id DESC LIMIT ? OFFSET ?`,
      )
      .all(query, limit, offset)
      .map((r) => clipRowSchema.parse(r));
  }

  update(id: number, fields: { name?: string; tags?: string[]; notes?: string }): ClipRow | undefined {
    const row = this.db
      .prepare(
        'UPDATE clips SET name = COALESCE(?, name), tags = COALESCE(?, tags), notes = COALESCE(?, notes), updated_at = ? WHERE id = ? RETURNING *',
      )
      .get(
        fields.name?.trim() ?? null,
        fields.tags ? JSON.stringify(uniqueTags(fields.tags)) : null,
        fields.notes ?? null,
        Date.now(),
        id,
      );
    return row ? clipRowSchema.parse(row) : undefined;
  }

  setState(id: number, state: ClipState, error: string | null = null): ClipRow | undefined {
    const row = this.db
      .prepare('UPDATE clips SET state = ?, error = ?, updated_at = ? WHERE id = ? RETURNING *')
      .get(state, error, Date.now(), id);
    return row ? clipRowSchema.parse(row) : undefined;
  }

  setDownload(id: number, downloadId: number): void {
    this.db
      .prepare(`UPDATE clips SET download_id = ?, state = 'downloading', updated_at = ? WHERE id = ?`)
      .run(downloadId, Date.now(), id);
  }

  setSource(id: number, sourcePath: string, video: { bucket: string; blob: string } | null): void {
    this.db
      .prepare(
        'UPDATE clips SET source_path = ?, video_bucket = COALESCE(?, video_bucket), video_blob = COALESCE(?, video_blob), updated_at = ? WHERE id = ?',
      )
      .run(sourcePath, video?.bucket ?? null, video?.blob ?? null, Date.now(), id);
  }

  /** Whether a ready clip was written to exactly this path. */
  hasFile(path: string): boolean {
    return this.db.prepare("SELECT 1 FROM clips WHERE path = ? AND state = 'ready' LIMIT 1").get(path) !== undefined;
  }

  setOutput(id: number, path: string): void {
    this.db.prepare('UPDATE clips SET path = ?, updated_at = ? WHERE id = ?').run(path, Date.now(), id);
  }

  ready(id: number, f: ClipMedia & { duration: number | null; thumbnailPath: string | null }): ClipRow {
    const row = this.db
      .prepare(
        `UPDATE clips SET state = 'ready', error = NULL, duration_s = ?, fps = ?, width = ?, height = ?, has_audio = ?, thumbnail_path = ?, updated_at = ? WHERE id = ? RETURNING *`,
      )
      .get(f.duration, f.fps, f.width, f.height, f.hasAudio ? 1 : 0, f.thumbnailPath, Date.now(), id);
    return clipRowSchema.parse(row);
  }

  /** The media facts of a clip file probed again (clips cut before they were stored). */
  setMedia(id: number, f: ClipMedia): ClipRow | undefined {
    const row = this.db
      .prepare(
        'UPDATE clips SET fps = ?, width = ?, height = ?, has_audio = ?, updated_at = ? WHERE id = ? RETURNING *',
      )
      .get(f.fps, f.width, f.height, f.hasAudio ? 1 : 0, Date.now(), id);
    return row ? clipRowSchema.parse(row) : undefined;
  }

  delete(id: number): ClipRow | undefined {
    const row = this.db.prepare('DELETE FROM clips WHERE id = ? RETURNING *').get(id);
    return row ? clipRowSchema.parse(row) : undefined;
  }
}

function uniqueTags(tags: string[]): string[] {
  return [...new Set(tags.map((t) => t.trim()).filter((t) => t !== ''))];
}

/** Words of free text as an FTS5 query: each word quoted (no operator injection) and matched as a prefix. */
export function ftsQuery(text: string): string {
  const words = text.normalize('NFC').match(/[\p{L}\p{N}_]+/gu) ?? [];
  return words.map((w) => `"${w.replace(/"/g, '""')}"*`).join(' ');
}
