import { basename } from 'node:path';
import type { ClipRow } from '../clips-store';
import { framesOf, oneHour, rateLabel, rateOf, sameRate, timecode, type Rate } from './timecode';

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

/** One row per clip with its range in seconds and timecode, text, tags and notes (CRLF, UTF-8 with BOM for spreadsheets). */
export function clipsCsv(clips: ClipRow[]): string {
  const lines = [CSV_COLUMNS.map(csvField).join(',')];
  for (const c of clips) {
    const rate = rateOf(c.fps);
    lines.push(
      [
        c.id,
        c.video_no,
        c.video_name,
        c.source_path,
        c.path,
        round(c.start_s),
        round(c.end_s),
        timecode(framesOf(c.start_s, rate), rate),
        timecode(framesOf(c.end_s, rate), rate),
        c.duration_s === null ? null : round(c.duration_s),
        c.handles_s,
        c.fps,
        c.mode,
        c.format,
        c.state,
        c.query,
        c.text,
        c.score,
        c.tags.join('; '),
        c.notes,
        new Date(c.created_at).toISOString(),
      ]
        .map(csvField)
        .join(','),
    );
  }
  return `\ufeff${lines.join('\r\n')}\r\n`;
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/** Comment lines of an EDL carry free text: one line, no control characters. */
function comment(text: string): string {
  return text
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/[^\x20-\x7e\u00a0-\uffff]/g, '')
    .trim()
    .slice(0, 200);
}

/** CMX3600 channel field: picture and stereo sound, or picture only. */
function channels(c: ClipRow): string {
  return c.has_audio ? 'AA/V' : 'V';
}

/**
 * CMX3600 EDL at one frame rate (`rate`, the project's or the clips' most common): every source timecode is the hit's
 * [start, end] in its video converted to that rate, record timecode laid end to end from 01:00:00:00, drop frame when
 * the rate says so. Clips with sound get an AA/V event (picture and both audio channels), silent ones V. The source is
 * named on a "* FROM CLIP NAME:" line (reel "AX"); a clip of another rate says so on a comment line, as do the query,
 * tags and notes.
 */
export function clipsEdl(clips: ClipRow[], rate: Rate, title = 'Reelsync clips'): string {
  const out = [
    `TITLE: ${comment(title).toUpperCase() || 'REELSYNC CLIPS'}`,
    `FCM: ${rate.drop ? 'DROP FRAME' : 'NON-DROP FRAME'}`,
    '',
  ];
  let record = oneHour(rate);
  clips.forEach((c, i) => {
    const srcIn = framesOf(c.start_s, rate);
    const srcOut = Math.max(srcIn + 1, framesOf(c.end_s, rate));
    const length = srcOut - srcIn;
    const event = String(i + 1).padStart(3, '0');
    out.push(
      `${event}  AX       ${channels(c).padEnd(6)}C        ${timecode(srcIn, rate)} ${timecode(srcOut, rate)} ${timecode(record, rate)} ${timecode(record + length, rate)}`,
    );
    out.push(`* FROM CLIP NAME: ${comment(c.name || c.video_name || c.video_no)}`);
    if (c.source_path) out.push(`* SOURCE FILE: ${comment(basename(c.source_path))}`);
    if (c.fps !== null && !sameRate(rateOf(c.fps), rate))
      out.push(`* COMMENT: SOURCE ${rateLabel(rateOf(c.fps))} FPS, TIMECODES CONVERTED TO ${rateLabel(rate)}`);
    if (c.query) out.push(`* COMMENT: QUERY ${comment(c.query)}`);
    if (c.tags.length) out.push(`* COMMENT: TAGS ${comment(c.tags.join(', '))}`);
    if (c.notes) out.push(`* COMMENT: ${comment(c.notes)}`);
    out.push('');
    record += length;
  });
  return `${out.join('\r\n')}\r\n`;
}
