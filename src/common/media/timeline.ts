import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mediaInput, type InputKind } from './media-input';
import { ffprobePath } from './tools';

/** What demuxing a stream (reading every packet, decoding none) shows of its length. */
export interface StreamTimeline {
  index: number;
  type: 'video' | 'audio';
  packets: number;
  /** From the earliest packet's start (or 0, if earlier) to the latest packet's end. */
  seconds: number;
}

interface Span {
  packets: number;
  start: number;
  end: number;
}

/**
 * Every packet's timing of the video (cover pictures aside) and audio streams, read by one ffprobe demux pass: about a
 * quarter of the time a SHA-256 of the file takes. The container's declared duration can say anything (a Matroska
 * Duration of 1 ms over ten minutes of clusters); the packets are what ffmpeg will decode.
 */
export async function measureTimeline(file: string, kind: InputKind, signal?: AbortSignal): Promise<StreamTimeline[]> {
  const args = [
    '-v',
    'error',
    '-show_entries',
    'stream=index,codec_type:stream_disposition=attached_pic:packet=stream_index,pts_time,dts_time,duration_time',
    '-of',
    'compact',
    ...mediaInput(kind, file),
  ];
  const child = spawn(ffprobePath(), args, { stdio: ['ignore', 'pipe', 'pipe'], signal });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2000)));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  });
  const spans = new Map<number, Span>();
  const types = new Map<number, StreamTimeline['type']>();
  for await (const line of createInterface({ input: child.stdout })) {
    const fields = parseCompact(line);
    if (line.startsWith('packet|')) addPacket(spans, fields);
    else if (line.startsWith('stream|')) {
      const type = fields.get('codec_type');
      if ((type === 'video' && fields.get('disposition:attached_pic') !== '1') || type === 'audio')
        types.set(Number(fields.get('index')), type);
    }
  }
  const code = await exited;
  if (code !== 0) {
    const reason = stderr
      .trim()
      .split('\n')
      .slice(-2)
      .join('; ')
      .replaceAll(`file:${file}`, 'the file')
      .replaceAll(file, 'the file');
    throw new Error(`ffprobe could not read every packet: ${reason}`);
  }
  return [...types].map(([index, type]) => {
    const span = spans.get(index);
    // Packets before 0 (audio priming, B-frame delay) are not shown; milliseconds keep float noise out of prices.
    const seconds = span ? Math.max(0, Math.round((span.end - Math.max(0, span.start)) * 1000) / 1000) : 0;
    return { index, type, packets: span?.packets ?? 0, seconds };
  });
}

function parseCompact(line: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const part of line.split('|')) {
    const eq = part.indexOf('=');
    if (eq > 0) fields.set(part.slice(0, eq), part.slice(eq + 1));
  }
  return fields;
}

function addPacket(spans: Map<number, Span>, fields: Map<string, string>): void {
  const index = Number(fields.get('stream_index'));
  const start = finite(fields.get('pts_time')) ?? finite(fields.get('dts_time'));
  if (!Number.isInteger(index)) return;
  const span = spans.get(index) ?? { packets: 0, start: Infinity, end: -Infinity };
  span.packets += 1;
  if (start !== null) {
    span.start = Math.min(span.start, start);
    span.end = Math.max(span.end, start + Math.max(0, finite(fields.get('duration_time')) ?? 0));
  }
  spans.set(index, span);
}

function finite(value: string | undefined): number | null {
  if (value === undefined || value === 'N/A') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/** Beyond these packet rates a stream's timestamps are squeezed: 300 covers 240 fps slow motion; audio codecs send ~50. */
export const MAX_PACKETS_PER_SECOND: Record<StreamTimeline['type'], number> = { video: 300, audio: 1000 };
/** A declared duration may fall short of the packets by this much (rounding, edit lists, audio priming). */
const DECLARED_SLACK = { ratio: 1.1, seconds: 2 };

export type TimelineVerdict = { ok: true; seconds: number } | { ok: false; reason: string };

/**
 * The duration to price and index a file by, or why its timing cannot be trusted: the larger of the container's
 * declared duration and the longest stream's packets; refused when the packets run well past the declared duration,
 * or when a stream packs more packets into its timeline than any real footage has (timestamps squeezed together).
 */
export function judgeTimeline(declared: number | null, streams: StreamTimeline[]): TimelineVerdict {
  for (const s of streams) {
    if (s.packets < 30) continue;
    const rate = s.packets / Math.max(s.seconds, 0.001);
    if (rate > MAX_PACKETS_PER_SECOND[s.type]) {
      return {
        ok: false,
        reason: `its ${s.type} stream packs ${s.packets} packets into ${fmt(s.seconds)} s (over ${MAX_PACKETS_PER_SECOND[s.type]} per second), so its timing cannot be trusted`,
      };
    }
  }
  const measured = Math.max(0, ...streams.map((s) => s.seconds));
  if (declared !== null && declared > 0 && measured > declared * DECLARED_SLACK.ratio + DECLARED_SLACK.seconds) {
    return {
      ok: false,
      reason: `it declares a duration of ${fmt(declared)} s but its streams run ${fmt(measured)} s, so its duration cannot be trusted`,
    };
  }
  const seconds = Math.max(declared ?? 0, measured);
  return seconds > 0 ? { ok: true, seconds } : { ok: false, reason: 'it has no duration' };
}

function fmt(seconds: number): string {
  return seconds < 1 ? String(Math.round(seconds * 1000) / 1000) : seconds.toFixed(1);
}
