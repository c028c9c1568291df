import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { z } from 'zod';
import { parseTimecode, rateOfFraction, timecode, type Rate } from '../../shared/timecode';
import {
  embeddedTimecode,
  frameRate,
  pictureStream,
  probeOriginalStreams,
  type OriginalStreams,
} from './original-probe';
import { sidecarFactsSchema, type SidecarFacts } from './sidecar-facts';
import { parseSonyXml } from './sony-xml';
import { parseXmpSidecar } from './xmp-sidecar';

export const TIMECODE_SOURCES = ['tmcd', 'mxf', 'stream', 'sony-xml', 'xmp', 'bext', 'none'] as const;

/** Who a camera original is to an editing system: its start timecode, rate, reel, clip name and camera. */
export const originalIdentitySchema = z.object({
  /** Start timecode "HH:MM:SS:FF" (";" before the frames in drop frame); 00:00:00:00 when the file has none. */
  startTimecode: z.string().regex(/^\d{2}:\d{2}:\d{2}[:;]\d{2}$/),
  /** The same as a frame count at `rate` (what timecode arithmetic uses). */
  startFrame: z.number().int().nonnegative(),
  /** Exact frame rate "num/den" (30000/1001 for 29.97). */
  rate: z.string().regex(/^\d+\/\d+$/),
  dropFrame: z.boolean(),
  timecodeSource: z.enum(TIMECODE_SOURCES),
  /** Reel or tape name (QuickTime/MXF reel_name, XMP tape/reel name); null when the file names none. */
  reel: z.string().max(200).nullable(),
  /** The camera's name for the clip (MXF material package, XMP shot name), else the file's name stem. */
  clipName: z.string().max(200),
  cameraMake: z.string().max(200).nullable(),
  cameraModel: z.string().max(200).nullable(),
  createdAt: z.string().max(64).nullable(),
  durationSeconds: z.number().nonnegative().nullable(),
  /** Whole frames of the picture (duration x rate). */
  durationFrames: z.number().int().nonnegative().nullable(),
  /** ffprobe's format name ("mov,mp4,m4a,3gp,3g2,mj2", "mxf", "mpegts"). */
  container: z.string().nullable(),
  codec: z.string().nullable(),
  profile: z.string().nullable(),
  pixFmt: z.string().nullable(),
  width: z.number().int().nonnegative().nullable(),
  height: z.number().int().nonnegative().nullable(),
  hasAudio: z.boolean(),
  sidecars: z.array(sidecarFactsSchema),
});
export type OriginalIdentity = z.infer<typeof originalIdentitySchema>;

/** The identity's rate as exact frame arithmetic. */
export function identityRate(id: Pick<OriginalIdentity, 'rate' | 'dropFrame'>): Rate {
  return rateOfFraction(id.rate, id.dropFrame) ?? rateOfFraction('25/1', false)!;
}

const SIDECAR_MAX_BYTES = 1024 * 1024;

async function readSmall(path: string): Promise<string | null> {
  const info = await stat(path).catch(() => null);
  if (!info?.isFile() || info.size > SIDECAR_MAX_BYTES) return null;
  return readFile(path, 'utf8').catch(() => null);
}

/**
 * The sidecars cameras write beside a clip: Sony's `<clip>M01.XML` (XDCAM, XAVC) and XMP (`<name>.xmp` or
 * `<stem>.xmp`, any case). Unreadable or foreign files are skipped.
 */
export async function readSidecars(path: string): Promise<SidecarFacts[]> {
  const dir = dirname(path);
  const name = basename(path);
  const stem = name.slice(0, name.length - extname(name).length);
  const found: SidecarFacts[] = [];
  for (const file of [`${stem}M01.XML`, `${stem}M01.xml`]) {
    const text = await readSmall(join(dir, file));
    const facts = text === null ? null : parseSonyXml(text, file);
    if (facts) {
      found.push(facts);
      break;
    }
  }
  for (const file of [`${name}.xmp`, `${stem}.xmp`, `${stem}.XMP`, `${name}.XMP`]) {
    const text = await readSmall(join(dir, file));
    const facts = text === null ? null : parseXmpSidecar(text, file);
    if (facts) {
      found.push(facts);
      break;
    }
  }
  return found;
}

const clean = (v: string | undefined | null): string | null => {
  const t = v
    ?.split('')
    .filter((ch) => ch >= ' ' && ch !== '\u007f')
    .join('')
    .trim();
  return t ? t.slice(0, 200) : null;
};

/** Combines the probe and the sidecars into the original's identity (pure: what `readOriginalIdentity` returns). */
export function identityFrom(path: string, p: OriginalStreams, sidecars: SidecarFacts[]): OriginalIdentity {
  const video = pictureStream(p);
  const audio = p.streams.find((s) => s.codec_type === 'audio');
  const sony = sidecars.find((s) => s.kind === 'sony-xml');
  const xmp = sidecars.find((s) => s.kind === 'xmp');
  const embedded = embeddedTimecode(p);
  const bext = Number(p.format.tags?.time_reference);
  const sampleRate = Number(audio?.sample_rate);
  const candidates: { text: string; source: OriginalIdentity['timecodeSource'] }[] = [
    ...(embedded ? [embedded] : []),
    ...(sony?.startTimecode ? [{ text: sony.startTimecode, source: 'sony-xml' as const }] : []),
    ...(xmp?.startTimecode ? [{ text: xmp.startTimecode, source: 'xmp' as const }] : []),
  ];
  const rateText = frameRate(video)?.rate ?? sony?.rate ?? xmp?.rate ?? '25/1';
  const candidate = candidates[0] ?? null;
  const drop = candidate ? /[;.,]\d{2}$/.test(candidate.text) : false;
  const rate = rateOfFraction(rateText, drop) ?? rateOfFraction('25/1')!;
  let startFrame = candidate ? parseTimecode(candidate.text, rate) : null;
  let source: OriginalIdentity['timecodeSource'] = candidate && startFrame !== null ? candidate.source : 'none';
  if (startFrame === null && Number.isFinite(bext) && bext >= 0 && sampleRate > 0) {
    // BWF: samples since midnight, as a frame count at the picture's rate.
    startFrame = Math.round(((bext / sampleRate) * rate.num) / rate.den);
    source = 'bext';
  }
  startFrame ??= 0;
  const duration = Number(p.format.duration);
  const durationSeconds = Number.isFinite(duration) && duration >= 0 ? duration : null;
  const name = basename(path);
  const stem = name.slice(0, name.length - extname(name).length);
  const reel =
    clean(p.streams.find((s) => s.tags?.reel_name)?.tags?.reel_name) ??
    clean(p.format.tags?.reel_name) ??
    xmp?.reel ??
    null;
  return originalIdentitySchema.parse({
    startTimecode: timecode(startFrame, rate),
    startFrame,
    rate: `${rate.num}/${rate.den}`,
    dropFrame: rate.drop,
    timecodeSource: source,
    reel,
    clipName: clean(p.format.tags?.material_package_name) ?? xmp?.clipName ?? (stem || name),
    cameraMake: sony?.cameraMake ?? xmp?.cameraMake ?? clean(p.format.tags?.make) ?? null,
    cameraModel: sony?.cameraModel ?? xmp?.cameraModel ?? clean(p.format.tags?.model) ?? null,
    createdAt: sony?.createdAt ?? xmp?.createdAt ?? clean(p.format.tags?.creation_time) ?? null,
    durationSeconds,
    durationFrames: durationSeconds === null ? null : Math.round((durationSeconds * rate.num) / rate.den),
    container: p.format.format_name ?? null,
    codec: video?.codec_name ?? null,
    profile: clean(video?.profile),
    pixFmt: video?.pix_fmt ?? null,
    width: video?.width ?? null,
    height: video?.height ?? null,
    hasAudio: audio !== undefined,
    sidecars,
  });
}

/** Reads a camera original's identity from the file (ffprobe) and the sidecars beside it. */
export async function readOriginalIdentity(path: string, signal?: AbortSignal): Promise<OriginalIdentity> {
  const [probe, sidecars] = await Promise.all([probeOriginalStreams(path, signal), readSidecars(path)]);
  return identityFrom(path, probe, sidecars);
}
