import type { ExportItem } from './export-item';
import { sourceRange } from './source-range';
import { framesOf, rateLabel, rateOf, timecode } from '../../../shared/timecode';

const CSV_COLUMNS = [
  'id',
  'video_no',
  'video_name',
  'source_path',
  'clip_path',
  'start_seconds',
  'end_seconds',
  'start_tc',
  'end_tc',
  'duration_seconds',
  'handles_seconds',
  'fps',
  'mode',
  'format',
  'state',
  'query',
  'text',
  'score',
  'tags',
  'notes',
  'created_at',
  // The camera original (or what the export links to) and the event in its own timecode, as every format writes it.
  'original_file',
  'reel',
  'clip_name',
  'source_fps',
  'source_tc_in',
  'source_tc_out',
  'hit_tc_in',
  'hit_tc_out',
] as const;

/**
 * RFC 4180 field, always quoted. Text a spreadsheet would run as a formula (leading =, +, -, @, tab, CR) gets a
 * leading apostrophe; numbers are written as numbers.
 */
function csvField(value: string | number | null): string {
  if (value === null) return '""';
  let s = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return `"${s.replace(/"/g, '""')}"`;
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/**
 * One row per item: the hit in seconds and timecode from the video's start, the saved clip's file and state, then the
 * original it links to with the event (handles included) and the hit in the original's own timecode (CRLF, UTF-8 with
 * BOM for spreadsheets).
 */
export function itemsCsv(items: ExportItem[]): string {
  const lines = [CSV_COLUMNS.map(csvField).join(',')];
  for (const item of items) {
    const c = item.clip;
    const rate = rateOf(c?.fps ?? null);
    const r = sourceRange(item);
    const tc = (frames: number): string => timecode(frames, r.rate);
    lines.push(
      [
        item.id,
        item.videoNo,
        item.videoName,
        c?.source_path ?? item.media.path,
        c?.path ?? null,
        round(item.start),
        round(item.end),
        timecode(framesOf(item.start, rate), rate),
        timecode(framesOf(item.end, rate), rate),
        c ? (c.duration_s === null ? null : round(c.duration_s)) : round(item.end - item.start),
        item.handles,
        c?.fps ?? null,
        c?.mode ?? null,
        c?.format ?? null,
        c?.state ?? null,
        item.query,
        item.text,
        item.score,
        item.tags.join('; '),
        item.notes,
        c ? new Date(c.created_at).toISOString() : null,
        item.media.path ?? item.media.name,
        item.media.reel,
        item.media.clipName,
        rateLabel(r.rate),
        tc(r.tcIn),
        tc(r.tcOut),
        tc(item.media.startFrame + r.hitIn),
        tc(item.media.startFrame + r.hitOut),
      ]
        .map(csvField)
        .join(','),
    );
  }
  return `\ufeff${lines.join('\r\n')}\r\n`;
}
