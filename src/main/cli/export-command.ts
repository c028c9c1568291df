import { type Command, InvalidArgumentError, Option } from 'commander';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { SearchResult } from '../api/client';
import {
  EXPORT_FORMATS,
  EXPORT_FRAME_RATES,
  type ExportFormat,
  type ExportFrameRate,
} from '../../shared/contract/clips';
import { libraryMedia, mediaOf, type ExportItem } from '../library/export/export-item';
import { listRate } from '../library/export/list-rate';
import { renderItems } from '../library/export/render';
import { OriginalIdentities } from '../media/identities';
import { SqliteIdentityStore } from '../media/identity-store';
import type { Logger } from '../log';
import type { Db } from '../store/database';
import { LocalOriginals } from '../sync/local-originals';
import { connect } from './connect';
import { withFeature } from './library-commands';
import { EXIT, type GlobalOptions } from './options';

type SearchType = 'BY_CLIP' | 'BY_AUDIO' | 'BY_CAPTION';

export interface ExportCommandOptions {
  query: string;
  type: SearchType;
  format: ExportFormat;
  out: string;
  topK: number;
  handles: number;
  frameRate: ExportFrameRate;
}

/** A search hit as a video range (caption hits and clip hits spell it differently). */
export interface Hit {
  videoNo: string;
  videoName: string;
  start: number;
  end: number;
  score: number;
  text: string;
}

export function hitsOf(results: SearchResult): Hit[] {
  return results.flatMap((r) => {
    if ('videoNo' in r) {
      const start = Number(r.startTime);
      const end = Number(r.endTime);
      if (!Number.isFinite(start) || !Number.isFinite(end)) return [];
      return [{ videoNo: r.videoNo, videoName: r.videoName, start, end, score: r.score, text: r.audio_ts ?? '' }];
    }
    if ('video_no' in r)
      return [
        { videoNo: r.video_no, videoName: '', start: r.start_time, end: r.end_time, score: r.score, text: r.text },
      ];
    return [];
  });
}

/** Hits as export items: each links to its camera original when this computer has it, else the library's video. */
export async function hitItems(
  db: Db,
  hits: Hit[],
  handles: number,
  query: string,
  logger: Logger,
): Promise<ExportItem[]> {
  const originals = new LocalOriginals(db);
  const identities = new OriginalIdentities(new SqliteIdentityStore(db), logger);
  const paths = originals.pathsOf(hits.map((h) => h.videoNo));
  return Promise.all(
    hits.map(async (h, i): Promise<ExportItem> => {
      const path = paths.get(h.videoNo) ?? null;
      const identity = path ? await identities.identityOf(path) : null;
      return {
        id: i + 1,
        label: `${i + 1}. ${h.videoName || h.videoNo} ${h.start.toFixed(2)}-${h.end.toFixed(2)}s`,
        videoNo: h.videoNo,
        videoName: h.videoName,
        start: h.start,
        end: h.end,
        handles,
        query,
        text: h.text,
        score: h.score,
        tags: [],
        notes: '',
        media: path && identity ? mediaOf('original', path, identity, 0) : libraryMedia(h.videoName, h.videoNo, null),
        clip: null,
      };
    }),
  );
}

/** `export <query>`: the query's hits as a string-out in one format, written to --out (replaced when it exists). */
export async function runExport(db: Db, g: GlobalOptions, logger: Logger, o: ExportCommandOptions): Promise<number> {
  const conn = await connect(g, db, logger);
  try {
    const results = await conn.client.search({ search_param: o.query, search_type: o.type, top_k: o.topK });
    const items = await hitItems(db, hitsOf(results), o.handles, o.query, logger);
    const content = renderItems(o.format, items, listRate(items, o.frameRate), o.query);
    const out = resolve(o.out);
    await writeFile(out, content);
    const linked = items.filter((i) => i.media.kind === 'original').length;
    process.stderr.write(
      `${items.length} hit${items.length === 1 ? '' : 's'} written to ${out} (${linked} linked to the camera original on this computer)\n`,
    );
    process.stdout.write(`${out}\n`);
    return EXIT.ok;
  } finally {
    await conn.close();
  }
}

export interface ClipsExportOptions {
  format: ExportFormat;
  out: string;
  tag?: string;
  frameRate: ExportFrameRate;
}

/** `clips export`: the saved clips (those with --tag) in one format, written to --out. Works offline. */
export async function runClipsExport(db: Db, g: GlobalOptions, logger: Logger, o: ClipsExportOptions): Promise<number> {
  return withFeature(db, g, logger, false, async (feature) => {
    // Oldest first: the order they were saved in.
    const ids = feature.clips
      .list(1, 100_000, o.tag ? { tag: o.tag } : {})
      .rows.map((r) => r.id)
      .reverse();
    const { content, count } = await feature.clips.render(o.format, ids, o.frameRate);
    const out = resolve(o.out);
    await writeFile(out, content);
    process.stderr.write(`${count} clip${count === 1 ? '' : 's'} written to ${out}\n`);
    process.stdout.write(`${out}\n`);
    return EXIT.ok;
  });
}

/** `search --json`: each hit with `file`, the local path of its camera original when this computer has it. */
export function withOriginalFiles(db: Db, results: SearchResult): unknown[] {
  const originals = new LocalOriginals(db);
  const paths = originals.pathsOf(
    results.flatMap((r) => ('videoNo' in r ? [r.videoNo] : 'video_no' in r ? [r.video_no] : [])),
  );
  return results.map((r) => {
    const no = 'videoNo' in r ? r.videoNo : 'video_no' in r ? r.video_no : null;
    const file = no ? (paths.get(no) ?? null) : null;
    return file ? { ...r, file } : r;
  });
}

const nonNegative = (value: string): number => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('must be a number of seconds >= 0');
  return n;
};
const topK = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new InvalidArgumentError('must be an integer 1..1000');
  return n;
};
const formatOption = (): Option =>
  new Option('--format <format>', 'edl (CMX3600), fcpxml (1.9), xmeml (Premiere XML), otio (OpenTimelineIO) or csv')
    .choices(EXPORT_FORMATS)
    .makeOptionMandatory();
const rateOption = (): Option =>
  new Option('--frame-rate <rate>', "the timeline's rate (default: the most common rate of the originals)")
    .choices(EXPORT_FRAME_RATES)
    .default('auto');

type WithDb = (fn: (db: Db, g: GlobalOptions) => Promise<number> | number) => Promise<void>;

/** `export <query>` and `clips export`. */
export function registerExportCommands(program: Command, withDb: WithDb, logger: () => Logger): void {
  program
    .command('export')
    .description(
      "write a query's hits as a string-out for an editing system, every event linked to its camera original at its source timecode when this computer has it",
    )
    .argument('<query>', 'natural-language query')
    .addOption(formatOption())
    .requiredOption('--out <file>', 'the file to write (replaced when it exists)')
    .addOption(
      new Option('--type <type>', 'search type').choices(['BY_CLIP', 'BY_AUDIO', 'BY_CAPTION']).default('BY_CLIP'),
    )
    .option('--top-k <n>', 'number of hits', topK, 10)
    .option('--handles <seconds>', 'extra seconds before and after each hit (clamped to the media)', nonNegative, 0)
    .addOption(rateOption())
    .action(
      async (
        query: string,
        o: {
          format: ExportFormat;
          out: string;
          type: SearchType;
          topK: number;
          handles: number;
          frameRate: ExportFrameRate;
        },
      ) => {
        await withDb((db, g) => runExport(db, g, logger(), { query, ...o }));
      },
    );
  program
    .command('clips')
    .description('saved clips')
    .command('export')
    .description('write the saved clips (oldest first) for an editing system, linked to their camera originals')
    .addOption(formatOption())
    .requiredOption('--out <file>', 'the file to write (replaced when it exists)')
    .option('--tag <tag>', 'only the clips with this tag')
    .addOption(rateOption())
    .action(async (o: { format: ExportFormat; out: string; tag?: string; frameRate: ExportFrameRate }) => {
      await withDb((db, g) => runClipsExport(db, g, logger(), o));
    });
}
