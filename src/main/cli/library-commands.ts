import cliProgress from 'cli-progress';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { CLIP_FORMATS } from '../../shared/contract/clips';
import { describeError } from '../../shared/errors';
import { LocalOriginals } from '../sync/local-originals';
import { EventBus } from '../events';
import type { LibraryBlock } from '../api/job-outcome';
import { LibraryFeature } from '../library/feature';
import { formatUsd } from '../library/pricing';
import type { Logger } from '../log';
import type { Db } from '../store/database';
import { formatBytes } from '../sync/validator';
import { connect } from './connect';
import { EXIT, UsageError, type GlobalOptions } from './options';

export interface ClipCommandOptions {
  videoNo: string;
  start: number;
  end: number;
  out?: string;
  handles: number;
  copy: boolean;
  format?: (typeof CLIP_FORMATS)[number];
}

/** Library feature in the database's folder, with the service only when one is needed. */
export async function withFeature(
  db: Db,
  g: GlobalOptions,
  logger: Logger,
  needService: boolean,
  fn: (f: LibraryFeature, events: EventBus) => Promise<number>,
): Promise<number> {
  const events = new EventBus();
  const conn = needService ? await connect(g, db, logger) : null;
  const feature = new LibraryFeature({
    db,
    dataDir: dirname(resolve(g.db)),
    events,
    logger,
    service: conn ? { baseUrl: conn.baseUrl, key: conn.key } : undefined,
    probeConnectivity: false,
  });
  await feature.start();
  try {
    return await fn(feature, events);
  } finally {
    await feature.stop();
    await conn?.close();
  }
}

function formatOf(o: ClipCommandOptions): (typeof CLIP_FORMATS)[number] {
  if (o.format) return o.format;
  const ext = o.out ? extname(o.out).slice(1).toLowerCase() : '';
  const known = CLIP_FORMATS.find((f) => f === ext);
  if (o.out && ext && !known)
    throw new UsageError(`--out: unsupported extension .${ext} (use ${CLIP_FORMATS.join(', ')}, or --format)`);
  return known ?? 'mp4';
}

/** `clip`: cut [start, end] (+ handles) of a video from its local original, else download it first; prints the file. */
export async function runClip(db: Db, g: GlobalOptions, logger: Logger, o: ClipCommandOptions): Promise<number> {
  if (!(o.end > o.start)) throw new UsageError('--end must be after --start');
  const format = formatOf(o);
  const local = new LocalOriginals(db).pathOf(o.videoNo);
  return withFeature(db, g, logger, local === null, async (feature, events) => {
    const stopBar = downloadBar(events);
    try {
      const saved = feature.clips.save({
        videoNo: o.videoNo,
        start: o.start,
        end: o.end,
        handles: o.handles,
        mode: o.copy ? 'copy' : 'accurate',
        format,
        outDir: o.out ? dirname(resolve(o.out)) : undefined,
        outName: o.out ? basename(o.out) : undefined,
        query: '',
        text: '',
        tags: [],
        notes: '',
      });
      process.stderr.write(
        local
          ? `cutting from the local original ${local}\n`
          : 'no local original: downloading the video through the API first\n',
      );
      const done = await feature.settledOrBlocked(feature.clips.settled(saved.id));
      if ('blocked' in done) return blockedExit(done.blocked);
      if (done.state !== 'ready' || !done.path) {
        process.stderr.write(`clip failed: ${done.error ?? 'unknown error'}\n`);
        return EXIT.failed;
      }
      process.stdout.write(`${done.path}\n`);
      process.stderr.write(
        `clip ${done.id}: ${done.duration_s?.toFixed(3) ?? '?'} s at ${done.fps ?? '?'} fps (${done.mode})\n`,
      );
      return EXIT.ok;
    } finally {
      stopBar();
    }
  });
}

export interface DownloadCommandOptions {
  bucket: string;
  blob: string;
  out?: string;
  maxCost?: number;
}

/** `download`: quote, then download one resource with a progress bar (resumes a partial one of an earlier run). */
export async function runDownload(
  db: Db,
  g: GlobalOptions,
  logger: Logger,
  o: DownloadCommandOptions,
): Promise<number> {
  return withFeature(db, g, logger, true, async (feature, events) => {
    const quote = await feature.downloads.quote(o.bucket, o.blob);
    process.stderr.write(
      `cost: ${formatUsd(quote.usd)}${quote.bytes !== null ? ` for ${formatBytes(quote.bytes)}` : ''} (${quote.note})\n`,
    );
    if (o.maxCost !== undefined && (quote.usd === null || quote.usd > o.maxCost)) {
      process.stderr.write(`refused: the cost ${formatUsd(quote.usd)} is above --max-cost ${formatUsd(o.maxCost)}\n`);
      return EXIT.failed;
    }
    const kind = o.blob.startsWith('videos/') ? 'video' : o.blob.startsWith('keyframes/') ? 'keyframe' : 'image';
    const stopBar = downloadBar(events);
    try {
      const row = await feature.downloads.start({
        kind,
        bucket: o.bucket,
        blob: o.blob,
        destDir: o.out ? resolve(o.out) : join(dirname(resolve(g.db)), 'downloads'),
        quote,
      });
      const done = await feature.settledOrBlocked(feature.downloads.settled(row.id));
      stopBar();
      if ('blocked' in done) return blockedExit(done.blocked);
      switch (done.state) {
        case 'done':
          process.stdout.write(`${done.path ?? ''}\n`);
          return EXIT.ok;
        case 'gone':
          process.stderr.write(`gone: ${done.error ?? 'Resource does not exist'}\n`);
          return EXIT.failed;
        case 'failed':
          process.stderr.write(`failed: ${done.error ?? ''}\n`);
          return /balance/i.test(done.error ?? '') ? EXIT.balance : EXIT.failed;
        default:
          process.stderr.write(`download ${done.state}\n`);
          return EXIT.failed;
      }
    } catch (err) {
      stopBar();
      process.stderr.write(`download failed: ${describeError(err)}\n`);
      return EXIT.failed;
    }
  });
}

/** The library queue paused on a refused key or an empty balance: the command stops waiting (the work stays queued). */
function blockedExit(reason: LibraryBlock): number {
  if (reason === 'insufficient-balance') {
    process.stderr.write('the service reports an insufficient balance: the download stays queued until recharged\n');
    return EXIT.balance;
  }
  process.stderr.write('the service refused the API key: the download stays queued\n');
  return EXIT.service;
}

/** One bar per running download: bytes, rate, ETA. */
function downloadBar(events: EventBus, out: NodeJS.WriteStream = process.stderr): () => void {
  const bar = new cliProgress.SingleBar(
    {
      format: ' download |{bar}| {percentage}% {done}/{size} {rate}/s ETA {eta_formatted}',
      stream: out,
      noTTYOutput: !out.isTTY,
      notTTYSchedule: 5000,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  const off = events.on('downloads:progress', (p) => {
    if (p.state !== 'downloading') return;
    const total = p.total ?? p.bytes;
    const payload = { done: formatBytes(p.bytes), size: formatBytes(total), rate: formatBytes(p.rate) };
    if (!started) {
      bar.start(total, p.bytes, payload);
      started = true;
    }
    bar.setTotal(total);
    bar.update(p.bytes, payload);
  });
  return () => {
    off();
    if (started) bar.stop();
    started = false;
  };
}
