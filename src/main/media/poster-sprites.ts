import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ffmpegPath } from '../../common/media/tools';
import { ffprobe } from '../../common/media/ffprobe';
import { mediaInput } from '../../common/media/media-input';
import { SPRITE_FRAMES } from '../../shared/poster-sprite';

const run = promisify(execFile);

const FRAME_W = 192;
const FRAME_H = 108;
/** Sprites kept on disk; the least recently shown go first (each is ~20-40 KB). */
const MAX_SPRITES = 3000;
/** ffmpeg runs at once: a page of rows asks for a dozen sprites together; the machine keeps working meanwhile. */
const AT_ONCE = 2;

export type PosterAnswer = { ok: true; bytes: Buffer } | { ok: false; status: number; message: string };

/**
 * Library thumbnails as small JPEG sprites: SPRITE_FRAMES frames side by side, made once per file version by ffmpeg
 * (one fast seek per frame) and cached in `dir`, keyed by the file's real path, size and mtime. A row shows one frame
 * as an image at once and scrubs on hover by moving to the others: no <video> per row, no media requests to abort.
 */
export class PosterSprites {
  private readonly pending = new Map<string, Promise<PosterAnswer>>();
  private readonly waiting: (() => void)[] = [];
  private running = 0;
  private written = 0;

  constructor(private readonly dir: string) {}

  /** The sprite of a file already checked to lie inside the allowed roots (`real` is its real path). */
  async get(real: string): Promise<PosterAnswer> {
    const info = await stat(real).catch(() => null);
    if (!info?.isFile()) return { ok: false, status: 404, message: 'no such file' };
    const key = createHash('sha256').update(`${real}\0${info.size}\0${info.mtimeMs}`).digest('hex').slice(0, 32);
    const file = join(this.dir, `${key}.jpg`);
    const cached = await readFile(file).catch(() => null);
    if (cached) {
      const now = new Date();
      await utimes(file, now, now).catch(() => undefined);
      return { ok: true, bytes: cached };
    }
    let job = this.pending.get(key);
    if (!job) {
      job = this.slot(() => this.make(real, file)).finally(() => this.pending.delete(key));
      this.pending.set(key, job);
    }
    const answer = await job;
    // Renamed or deleted while its picture was being made: that is why no picture came, not the file's content.
    if (!answer.ok && !(await stat(real).catch(() => null))) return { ok: false, status: 404, message: 'no such file' };
    return answer;
  }

  private async slot<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= AT_ONCE) await new Promise<void>((go) => this.waiting.push(go));
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  private async make(real: string, file: string): Promise<PosterAnswer> {
    const duration = (await ffprobe(real, { kind: 'cameraOriginal' }).catch(() => null))?.durationSeconds;
    if (!duration || duration <= 0) return { ok: false, status: 422, message: 'not a video this computer can decode' };
    const args = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y'];
    for (let i = 0; i < SPRITE_FRAMES; i++) {
      const at = Math.max(0, Math.min(duration - 0.1, ((i + 0.5) / SPRITE_FRAMES) * duration));
      // Each frame its own input, opened as media-input does (no demuxer that reaches other files).
      args.push(...mediaInput('cameraOriginal', real, ['-ss', at.toFixed(3)]));
    }
    const cells = Array.from(
      { length: SPRITE_FRAMES },
      (_, i) =>
        `[${i}:v:0]scale=${FRAME_W}:${FRAME_H}:force_original_aspect_ratio=decrease,` +
        `pad=${FRAME_W}:${FRAME_H}:(ow-iw)/2:(oh-ih)/2,setsar=1,trim=end_frame=1[f${i}]`,
    );
    const stack = `${cells.map((_, i) => `[f${i}]`).join('')}hstack=inputs=${SPRITE_FRAMES}[s]`;
    await mkdir(this.dir, { recursive: true });
    const part = `${file}.${process.pid}.part.jpg`;
    try {
      await run(ffmpegPath(), [
        ...args,
        '-filter_complex',
        [...cells, stack].join(';'),
        '-map',
        '[s]',
        '-frames:v',
        '1',
        '-q:v',
        '5',
        part,
      ]);
      await rename(part, file);
    } catch (err) {
      await rm(part, { force: true });
      const detail = err instanceof Error ? err.message.split('\n').slice(-2).join(' ') : String(err);
      return { ok: false, status: 422, message: `no picture could be made: ${detail}` };
    }
    if (++this.written % 100 === 0) void this.prune();
    return { ok: true, bytes: await readFile(file) };
  }

  /** Keeps the cache bounded: the sprites shown least recently go first. */
  async prune(max = MAX_SPRITES): Promise<number> {
    const names = (await readdir(this.dir).catch(() => [])).filter((n) => n.endsWith('.jpg') && !n.includes('.part'));
    if (names.length <= max) return 0;
    const aged = await Promise.all(
      names.map(async (n) => ({ n, t: (await stat(join(this.dir, n)).catch(() => null))?.mtimeMs ?? 0 })),
    );
    aged.sort((a, b) => a.t - b.t);
    const drop = aged.slice(0, names.length - max);
    await Promise.all(drop.map((d) => rm(join(this.dir, d.n), { force: true })));
    return drop.length;
  }
}
