import { codecDisplayName } from './codec-names';

/**
 * The one mapping from raw failure text (errno codes, ffmpeg/ffprobe messages, the validator's and the API client's
 * technical reasons, the service's indexing failures) to a sentence an editor understands. The raw text is never lost:
 * callers keep it as `details`, shown under a "Details" disclosure.
 */

export interface PlainReason {
  /** What happened and what to do, in plain words. */
  text: string;
  /** The raw text, or null when the raw text is already the plain text. */
  details: string | null;
  /** Which known cause matched ('unknown' when none did). */
  cause: ReasonCause;
}

interface Rule {
  cause: string;
  match: RegExp;
  text: (m: RegExpExecArray) => string;
}

/** Most specific first: a message can mention several things ("moov atom not found; Invalid data found ..."). */
const RULES = [
  {
    cause: 'camera-raw',
    match: /camera raw (.+?) cannot be decoded here \(open it in (.+)\)/i,
    text: (m) =>
      `This is a ${m[1] ?? ''} camera raw file, which Reelsync cannot read. Export it to ProRes or H.264 with ${m[2] ?? "the camera maker's tool"}, and put the export in a watched folder to make it searchable.`,
  },
  {
    cause: 'making-proxy',
    match: /^making a search proxy$/i,
    text: () =>
      'Making a small H.264 copy (a proxy) of this camera original: the library does not take its format, so the proxy is uploaded in its place.',
  },
  {
    cause: 'proxy-cache-full',
    match: /proxy cache is full/i,
    text: () =>
      'Waiting for room in the proxy cache: it makes this search proxy once earlier ones are uploaded and indexed, or when you raise the cache size in Settings.',
  },
  {
    cause: 'not-a-video',
    match: /not a video file \(its content is (text|no video container)\)/i,
    text: (m) =>
      m[1] === 'text'
        ? 'This is not a video at all: it holds text, whatever its name says. Nothing to upload.'
        : 'This is not a video at all: its content is no video format, whatever its name says. Nothing to upload.',
  },
  {
    cause: 'cut-short',
    match: /partial file|last second does not decode|Input buffer exhausted/i,
    text: () =>
      'This video is cut short: its end is missing, as when a copy from a card is interrupted. Copy it again from the original.',
  },
  {
    cause: 'no-index',
    match: /moov atom not found|no duration/i,
    text: () =>
      'This video is incomplete: the part that makes it playable is missing, as when a copy or a recording is interrupted. Copy it again from the original.',
  },
  {
    cause: 'playlist',
    match: /HLS playlist|Format not on whitelist|not a supported video container/i,
    text: () =>
      'This file is a playlist or another container, not a video Reelsync can upload. Use an .mp4, .mov, .mkv, .webm or .avi file.',
  },
  {
    cause: 'codec',
    match: /codec (\S+)(?: \(([^)]+)\))? is not (?:accepted|supported)/i,
    text: (m) =>
      `This video uses the ${codecDisplayName(m[1] ?? 'unknown', m[2])} codec, which the library does not accept. Export it as H.264, H.265 (HEVC) or VP9.`,
  },
  {
    cause: 'extension',
    match: /extension (\S+) is not (?:accepted|supported)/i,
    text: (m) =>
      `Only video files are uploaded (.mp4, .mov, .mkv, .webm, .avi); this one ends in ${m[1] === '(none)' ? 'no extension' : (m[1] ?? '')}.`,
  },
  {
    cause: 'too-large',
    match: /too large: ([\d.]+ \w+) \(the limit is ([\d.]+ \w+)\)/i,
    text: (m) => `This file is too large to upload (${m[1] ?? ''}; the limit is ${m[2] ?? ''}). Trim or re-export it.`,
  },
  { cause: 'empty', match: /empty file|file is empty|0 bytes/i, text: () => 'This file is empty (0 bytes).' },
  {
    cause: 'bad-timing',
    match: /duration cannot be trusted/i,
    text: () =>
      "This video's timing information is damaged, so the library cannot index it. Re-export it from your editing or conversion tool.",
  },
  { cause: 'no-video', match: /no video stream/i, text: () => 'This file has no picture: it holds no video track.' },
  {
    cause: 'not-video',
    match: /Invalid data found|not a readable video|could not read the file|not a regular file/i,
    text: () => 'This file is damaged or is not a video Reelsync can read.',
  },
  {
    cause: 'missing',
    match: /ENOENT|no such file/i,
    text: () => 'The file is no longer there: it was moved, renamed or deleted.',
  },
  {
    cause: 'no-permission',
    match: /EACCES|EPERM|permission denied/i,
    text: () => 'Reelsync is not allowed to read this file. Check its permissions, or move it to a folder you own.',
  },
  {
    cause: 'disk-full',
    match: /ENOSPC|no space left|disk.? full/i,
    text: () => 'The disk is full. Free some space; Reelsync carries on by itself.',
  },
  {
    cause: 'offline',
    match: /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|cannot reach the service/i,
    text: () => 'The library service cannot be reached right now. Reelsync tries again by itself once it is back.',
  },
  {
    cause: 'interrupted',
    match: /ECONNRESET|ETIMEDOUT|EPIPE|socket hang up|timed out|UND_ERR|request failed/i,
    text: () => 'The connection to the library service was interrupted. Reelsync tries again by itself.',
  },
  {
    cause: 'balance',
    match: /insufficient balance/i,
    text: () => 'The library account has run out of credit. Add credit, then resume the queue.',
  },
  {
    cause: 'key',
    match: /refused the API key|unauthori[sz]ed/i,
    text: () => 'The library service refused the API key. Check the key in Settings.',
  },
  {
    cause: 'rate-limited',
    match: /rate limited/i,
    text: () => 'The library service asked Reelsync to slow down. The upload resumes by itself shortly.',
  },
  {
    cause: 'service-error',
    match: /service error \d+/i,
    text: () => 'The library service had a problem. Reelsync tries again by itself.',
  },
  { cause: 'cancelled', match: /^cancell?ed$/i, text: () => 'Cancelled.' },
  {
    cause: 'indexing',
    match: /indexing failed|ffmpeg|ffprobe/i,
    text: () => 'The library could not analyse this video. It may be damaged; try re-exporting it.',
  },
] as const satisfies readonly Rule[];

export type ReasonCause = (typeof RULES)[number]['cause'] | 'unknown';

export const KNOWN_CAUSES: readonly ReasonCause[] = RULES.map((r) => r.cause);

const GENERIC = 'Something unexpected went wrong. The details say what happened.';

/** The plain sentence for a raw reason, with the raw text kept as details. */
export function plainReason(raw: string): PlainReason {
  for (const rule of RULES) {
    const m = rule.match.exec(raw);
    if (m) {
      const text = rule.text(m);
      return { text, details: text === raw ? null : raw, cause: rule.cause };
    }
  }
  return { text: GENERIC, details: raw, cause: 'unknown' };
}
