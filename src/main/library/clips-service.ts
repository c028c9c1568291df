import { readFile, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { z } from 'zod';
import { ffprobe } from '../../common/media/ffprobe';
import type { ClipView, ExportFormat, ExportFrameRate, saveClipSchema } from '../../shared/contract/clips';
import { AppError } from '../../shared/errors';
import type { ClipRow, ClipsStore } from './clips-store';
import type { JobsStore } from '../jobs/jobs-store';
import { clipMedia, type IdentityOf } from './export/clip-media';
import { clipItem } from './export/export-item';
import { listRate } from './export/list-rate';
import { renderItems } from './export/render';

export type SaveClip = z.output<typeof saveClipSchema>;

export interface ClipsServiceDeps {
  store: ClipsStore;
  jobs: JobsStore;
  /** Where a clip goes when the request names no folder (Settings' clips folder). */
  defaultDir: () => string;
  wake: () => void;
  abort: (target: string) => void;
  emit: (id: number, clip: ClipView | null) => void;
  /** The camera original of a library video on this computer (watched file of its content), else null. */
  originalOf: (videoNo: string) => string | null;
  identityOf: IdentityOf;
}

/** The clips library: save (queues a cut), browse, search, edit, delete, export. Everything but save works offline. */
export class ClipsService {
  private readonly waiters = new Map<number, ((row: ClipRow) => void)[]>();

  constructor(private readonly d: ClipsServiceDeps) {}

  save(req: SaveClip): ClipRow {
    const row = this.d.store.create({
      videoNo: req.videoNo,
      videoName: req.videoName ?? '',
      name: req.name ?? '',
      start: req.start,
      end: req.end,
      handles: req.handles,
      mode: req.mode,
      format: req.format,
      outDir: resolve(req.outDir ?? this.d.defaultDir()),
      outName: req.outName ?? null,
      query: req.query,
      searchType: req.searchType ?? null,
      text: req.text,
      score: req.score ?? null,
      video: req.video ?? null,
      keyframe: req.keyframe ?? null,
      tags: req.tags,
      notes: req.notes,
    });
    this.d.jobs.enqueue('clip', String(row.id), Date.now());
    this.notify(row);
    this.d.wake();
    return row;
  }

  get(id: number): ClipRow {
    const row = this.d.store.get(id);
    if (!row) throw new AppError('not_found', `no clip ${id}`);
    return row;
  }

  list(page: number, size: number, filter: { tag?: string; videoNo?: string }): { rows: ClipRow[]; total: number } {
    return this.d.store.page(page, size, filter);
  }

  search(text: string, limit: number, offset = 0): ClipRow[] {
    return this.d.store.search(text, limit, offset);
  }

  update(id: number, fields: { name?: string; tags?: string[]; notes?: string }): ClipRow {
    const row = this.d.store.update(id, fields);
    if (!row) throw new AppError('not_found', `no clip ${id}`);
    this.notify(row);
    return row;
  }

  async delete(id: number, deleteFile: boolean): Promise<boolean> {
    this.d.jobs.cancelOpen('clip', String(id));
    this.d.abort(String(id));
    const row = this.d.store.delete(id);
    if (!row) return false;
    if (row.thumbnail_path) await rm(row.thumbnail_path, { force: true });
    if (deleteFile && row.path) await rm(row.path, { force: true });
    this.d.emit(id, null);
    return true;
  }

  /**
   * The marker list of the given clips (all when omitted) at one frame rate, every event linking to the camera
   * original at its source timecode when this computer has it; where it may be written is the destination policy's
   * call. Clips cut before their sound was recorded are probed first.
   */
  async render(
    format: ExportFormat,
    ids: number[] | undefined,
    frameRate: ExportFrameRate = 'auto',
  ): Promise<{ content: string; count: number }> {
    const rows = await Promise.all(this.d.store.byIds(ids).map((r) => this.withMedia(r)));
    const items = await Promise.all(
      rows.map(async (r) => clipItem(r, await clipMedia(r, this.d.originalOf(r.video_no), this.d.identityOf))),
    );
    const rate = format === 'csv' ? listRate([], 'auto') : listRate(items, frameRate);
    return { content: renderItems(format, items, rate), count: rows.length };
  }

  /** A ready clip whose sound is not known yet (cut before it was recorded) with its file probed; as is otherwise. */
  private async withMedia(row: ClipRow): Promise<ClipRow> {
    if (row.state !== 'ready' || row.has_audio !== null || !row.path) return row;
    const probe = await ffprobe(row.path, { kind: 'storedVideo' }).catch(() => null);
    if (!probe) return row;
    const media = {
      fps: probe.video?.fps ?? row.fps,
      width: probe.video?.width ?? row.width,
      height: probe.video?.height ?? row.height,
      hasAudio: probe.audio !== null,
    };
    return this.d.store.setMedia(row.id, media) ?? row;
  }

  /** The clip's thumbnail as a data URL (it lives on local disk: works offline). */
  async thumbnail(id: number): Promise<string | null> {
    const row = this.get(id);
    if (!row.thumbnail_path) return null;
    const bytes = await readFile(row.thumbnail_path).catch(() => null);
    return bytes ? `data:image/jpeg;base64,${bytes.toString('base64')}` : null;
  }

  /** Resolves once the clip is ready or failed. */
  settled(id: number): Promise<ClipRow> {
    const row = this.get(id);
    if (row.state === 'ready' || row.state === 'failed') return Promise.resolve(row);
    return new Promise((res) => this.waiters.set(id, [...(this.waiters.get(id) ?? []), res]));
  }

  notify(row: ClipRow): void {
    this.d.emit(row.id, clipView(row));
    if (row.state !== 'ready' && row.state !== 'failed') return;
    const waiters = this.waiters.get(row.id);
    this.waiters.delete(row.id);
    for (const w of waiters ?? []) w(row);
  }
}

export function clipView(row: ClipRow): ClipView {
  return {
    id: row.id,
    videoNo: row.video_no,
    videoName: row.video_name,
    name: row.name,
    sourcePath: row.source_path,
    start: row.start_s,
    end: row.end_s,
    handles: row.handles_s,
    mode: row.mode,
    format: row.format,
    state: row.state,
    error: row.error,
    path: row.path,
    duration: row.duration_s,
    fps: row.fps,
    width: row.width,
    height: row.height,
    hasAudio: row.has_audio,
    query: row.query,
    searchType: row.search_type,
    text: row.text,
    score: row.score,
    thumbnailPath: row.thumbnail_path,
    tags: row.tags,
    notes: row.notes,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
