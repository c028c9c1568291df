import { describe, expect, it } from 'vitest';
import { KNOWN_CAUSES, plainReason, type ReasonCause } from './plain-reasons';

/** One real raw text per known cause, as the validator, ffprobe, Node, the API client or the service write it. */
const RAW: Record<Exclude<ReasonCause, 'unknown'>, string> = {
  'camera-raw': "camera raw RED R3D cannot be decoded here (open it in REDCINE-X PRO or RED's SDK)",
  'making-proxy': 'making a search proxy',
  'proxy-cache-full': 'the proxy cache is full: 2.0 GB of 2.0 GB held by proxies waiting for indexing',
  'not-a-video':
    'not a video file (its content is text): moov atom not found; Invalid data found when processing input',
  'cut-short': 'partial file: the streams declare 266.3 KB but the file holds 148.3 KB',
  'no-index':
    'not a readable video (truncated or corrupt?): moov atom not found; Invalid data found when processing input',
  playlist:
    'not a readable video (truncated or corrupt?): the file is an HLS playlist, not a supported video container (mp4/mov, mkv/webm or avi)',
  codec: 'video codec mpeg4 is not accepted (h264, h265/hevc, vp9)',
  extension: 'extension .txt is not accepted (.mp4, .mov, .mkv, .webm, .avi)',
  'too-large': 'too large: 5.2 GB (the limit is 5.0 GB)',
  empty: 'empty file (0 bytes)',
  'bad-timing':
    'file is not accepted: it declares a duration of 0.001 s but its streams run 20.0 s, so its duration cannot be trusted',
  'no-video': 'no video stream found',
  'not-video': 'not a readable video (truncated or corrupt?): Invalid data found when processing input',
  missing: "ENOENT: no such file or directory, open '/footage/A001.mp4'",
  'no-permission': "EACCES: permission denied, open '/footage/A001.mp4'",
  'disk-full': 'ENOSPC: no space left on device, write',
  offline: 'cannot reach the service: connect ECONNREFUSED 127.0.0.1:4817 (ECONNREFUSED)',
  interrupted: 'request failed: other side closed (UND_ERR_SOCKET)',
  balance: 'insufficient balance: not enough credits',
  key: 'the service refused the API key (401 UNAUTHORIZED): invalid key',
  'rate-limited': 'rate limited: too many requests',
  'service-error': 'service error 503: busy',
  cancelled: 'cancelled',
  indexing: 'indexing failed',
};

/** Words that mean nothing to an editor and must never be the sentence shown. */
const RAW_WORDS =
  /ENOENT|ECONNREFUSED|EACCES|EPERM|ENOSPC|ECONNRESET|UND_ERR|moov|atom|Invalid data|partial file|ffmpeg|ffprobe|stderr|errno|0x[0-9a-f]/i;

describe('plainReason', () => {
  it.each(KNOWN_CAUSES)('words the raw cause %s in plain words and keeps the raw text as details', (cause) => {
    if (cause === 'unknown') throw new Error('unknown is not a rule');
    const raw = RAW[cause];
    const plain = plainReason(raw);
    expect(plain.cause).toBe(cause);
    expect(plain.text).not.toMatch(RAW_WORDS);
    expect(plain.text).toMatch(/^[A-Z].*\.$/);
    expect(plain.details).toBe(raw);
  });

  it('has a sample for every known cause (a new rule needs its raw text here)', () => {
    expect(new Set(KNOWN_CAUSES)).toEqual(new Set(Object.keys(RAW)));
  });

  it('gives an unknown cause a generic sentence and the raw text as details', () => {
    const raw = 'SQLITE_BUSY: database is locked';
    expect(plainReason(raw)).toEqual({
      text: expect.stringMatching(/^Something unexpected went wrong\./) as unknown,
      details: raw,
      cause: 'unknown',
    });
  });

  it('keeps the numbers an editor needs (codec name, sizes)', () => {
    expect(plainReason(RAW.codec).text).toContain('the MPEG-4 Part 2 codec');
    expect(plainReason('video codec prores (HQ) is not accepted (h264, h265/hevc, vp9)').text).toContain(
      'the Apple ProRes 422 HQ codec',
    );
    expect(plainReason('video codec dnxhd (DNXHR HQX) is not accepted').text).toContain('the Avid DNxHR HQX codec');
    expect(plainReason('codec weirdcodec is not supported').text).toContain('the WEIRDCODEC codec');
    expect(plainReason(RAW['too-large']).text).toContain('5.2 GB');
    expect(plainReason(RAW['too-large']).text).toContain('5.0 GB');
  });

  it("words the service's own refusals (an upload answered 4xx) like the validator's", () => {
    expect(plainReason('codec mpeg4 is not supported (h264, h265, vp9)').cause).toBe('codec');
    expect(plainReason('extension .webm is not supported').cause).toBe('extension');
    expect(plainReason('not a readable video: moov atom not found').cause).toBe('no-index');
    expect(plainReason('file is empty').cause).toBe('empty');
  });

  it('says a file that is not a video is not one: no copy was interrupted', () => {
    const text = plainReason(RAW['not-a-video']).text;
    expect(text).toBe('This is not a video at all: it holds text, whatever its name says. Nothing to upload.');
    expect(text).not.toMatch(/incomplete|interrupted/);
    expect(plainReason('not a video file (its content is no video container): x').text).toMatch(/no video format/);
  });

  it('names the missing index, not the first symptom, when ffprobe lists both', () => {
    expect(plainReason('moov atom not found; Invalid data found when processing input').cause).toBe('no-index');
  });
});
