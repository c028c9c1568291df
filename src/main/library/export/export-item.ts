import { basename, extname } from 'node:path';
import type { OriginalIdentity } from '../../media/original-identity';
import { identityRate } from '../../media/original-identity';
import type { ClipRow } from '../clips-store';
import { rateOf, type Rate } from '../../../shared/timecode';

/**
 * The file an export links to: the camera original on this computer (what the edit wants), else the clip file cut
 * from it, else the library's video named only (the editor relinks by name and timecode).
 */
export interface ExportMedia {
  kind: 'original' | 'clip' | 'library';
  /** Absolute path; null for a video this computer does not hold. */
  path: string | null;
  /** File name as the edit shows it. */
  name: string;
  /** Reel or tape name from the file, else its name stem. */
  reel: string;
  /** The camera's clip name (MXF material package, XMP shot) or the name stem. */
  clipName: string;
  rate: Rate;
  /** Whether `rate` was read from the media (false: a guess, for a video known by name only). */
  rateKnown: boolean;
  /** The media's first frame as a frame count of its own timecode (its start timecode). */
  startFrame: number;
  /** Where the media's first frame lies in the library video, seconds (a clip file starts at its cut point). */
  offsetSeconds: number;
  /** Length of the media, seconds, when known: source ranges are clamped to it. */
  durationSeconds: number | null;
  width: number | null;
  height: number | null;
  hasAudio: boolean | null;
}

/** One event of an export: a hit's range in a library video, with handles, and what it links to. */
export interface ExportItem {
  /** The clip id or the hit's rank: unique in the list. */
  id: number;
  label: string;
  videoNo: string;
  videoName: string;
  /** The hit, seconds in the library video. */
  start: number;
  end: number;
  handles: number;
  query: string;
  text: string;
  score: number | null;
  tags: string[];
  notes: string;
  media: ExportMedia;
  /** The saved clip, for exports of saved clips (CSV lists its file and state). */
  clip: ClipRow | null;
}

const stemOf = (name: string): string => name.slice(0, name.length - extname(name).length) || name;

/** Media of a file whose identity was read (a camera original, or a clip file that kept its timecode). */
export function mediaOf(
  kind: 'original' | 'clip',
  path: string,
  id: OriginalIdentity,
  offsetSeconds: number,
): ExportMedia {
  const name = basename(path);
  return {
    kind,
    path,
    name,
    reel: id.reel ?? stemOf(name),
    clipName: kind === 'original' ? id.clipName : stemOf(name),
    rate: identityRate(id),
    rateKnown: true,
    startFrame: id.startFrame,
    offsetSeconds,
    durationSeconds: id.durationSeconds,
    width: id.width,
    height: id.height,
    hasAudio: id.hasAudio,
  };
}

/** Media known by name only (the library's copy, nothing on this computer): timecode from zero. */
export function libraryMedia(videoName: string, videoNo: string, fps: number | null): ExportMedia {
  const name = videoName || videoNo;
  return {
    kind: 'library',
    path: null,
    name,
    reel: stemOf(name),
    clipName: stemOf(name),
    rate: rateOf(fps),
    rateKnown: fps !== null && Number.isFinite(fps) && fps > 0,
    startFrame: 0,
    offsetSeconds: 0,
    durationSeconds: null,
    width: null,
    height: null,
    hasAudio: null,
  };
}

/** A saved clip as an export item linking to `media`. */
export function clipItem(c: ClipRow, media: ExportMedia): ExportItem {
  return {
    id: c.id,
    label: c.name || c.video_name || c.video_no,
    videoNo: c.video_no,
    videoName: c.video_name,
    start: c.start_s,
    end: c.end_s,
    handles: c.handles_s,
    query: c.query,
    text: c.text,
    score: c.score,
    tags: c.tags,
    notes: c.notes,
    media,
    clip: c,
  };
}

/** Media of a cut clip file whose identity is not read: its own rate from the cut's probe, timecode from zero. */
export function clipFileMedia(c: ClipRow & { path: string }): ExportMedia {
  const name = basename(c.path);
  return {
    kind: 'clip',
    path: c.path,
    name,
    reel: stemOf(name),
    clipName: stemOf(name),
    rate: rateOf(c.fps),
    rateKnown: c.fps !== null && Number.isFinite(c.fps) && c.fps > 0,
    startFrame: 0,
    offsetSeconds: Math.max(0, c.start_s - c.handles_s),
    durationSeconds: c.duration_s,
    width: c.width,
    height: c.height,
    hasAudio: c.has_audio,
  };
}
