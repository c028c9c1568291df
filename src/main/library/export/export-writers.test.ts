import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import type { ClipRow } from '../clips-store';
import { itemsEdl } from './edl';
import { clipFileMedia, clipItem, libraryMedia, type ExportItem } from './export-item';
import { itemsFcpxml } from './fcpxml';
import { listRate } from './list-rate';
import { framesOf, oneHour, projectRate, rateOf, timecode, type Rate } from '../../../shared/timecode';

const run = promisify(execFile);

let nextId = 1;
function clip(over: Partial<ClipRow>): ClipRow {
  const id = nextId++;
  return {
    id,
    video_no: `v${id}`,
    video_name: `video-${id}.mp4`,
    name: '',
    source_path: `/footage/video-${id}.mp4`,
    download_id: null,
    start_s: 2,
    end_s: 3,
    handles_s: 0,
    mode: 'accurate',
    format: 'mp4',
    out_dir: '/clips',
    out_name: null,
    path: `/clips/clip-${id}.mp4`,
    state: 'ready',
    error: null,
    duration_s: 1,
    fps: 25,
    width: 1920,
    height: 1080,
    has_audio: true,
    query: '',
    search_type: null,
    text: '',
    score: null,
    video_bucket: null,
    video_blob: null,
    keyframe_bucket: null,
    keyframe_blob: null,
    thumbnail_path: null,
    tags: [],
    notes: '',
    created_at: 0,
    updated_at: 0,
    ...over,
  };
}

/** Saved clips whose files carry no timecode: each event at the video's own time (what clipMedia does). */
function asItems(clips: ClipRow[]): ExportItem[] {
  return clips.map((c) => {
    if (!c.path) return clipItem(c, libraryMedia(c.video_name, c.video_no, c.fps));
    const media = clipFileMedia({ ...c, path: c.path });
    return clipItem(c, { ...media, startFrame: framesOf(media.offsetSeconds, media.rate) });
  });
}
const clipsEdl = (clips: ClipRow[], rate: Rate): string => itemsEdl(asItems(clips), rate);
const clipsFcpxml = (clips: ClipRow[], rate: Rate): string => itemsFcpxml(asItems(clips), rate);

const events = (edl: string): string[][] =>
  edl
    .split('\r\n')
    .filter((l) => /^\d{3} /.test(l))
    .map((l) => l.split(/\s+/));

describe('CMX3600 timecode math', () => {
  test('25, 24 and 30 fps count whole frames of their own base', () => {
    expect(timecode(framesOf(3723.48, rateOf(25)), rateOf(25))).toBe('01:02:03:12');
    expect(timecode(framesOf(59.5, rateOf(24)), rateOf(24))).toBe('00:00:59:12');
    expect(timecode(framesOf(10 + 29 / 30, rateOf(30)), rateOf(30))).toBe('00:00:10:29');
    expect(oneHour(rateOf(25))).toBe(90_000);
  });

  test('23.976 is 24000/1001 counted at base 24 (non-drop: an hour of clock is 00:59:56:10 of timecode)', () => {
    const r = rateOf(23.976);
    expect([r.num, r.den, r.base]).toEqual([24000, 1001, 24]);
    expect(framesOf(10, r)).toBe(240);
    expect(timecode(framesOf(3600, r), r)).toBe('00:59:56:10');
  });

  test('29.97 drop frame skips ;00 and ;01 each minute but every tenth, and keeps to the clock', () => {
    const df = projectRate('29.97-df');
    expect(df.drop).toBe(true);
    expect(timecode(1799, df)).toBe('00:00:59;29');
    expect(timecode(1800, df)).toBe('00:01:00;02');
    expect(timecode(17_981, df)).toBe('00:09:59;29');
    expect(timecode(17_982, df)).toBe('00:10:00;00');
    expect(timecode(oneHour(df), df)).toBe('01:00:00;00');
    expect(timecode(framesOf(3600, df), df)).toBe('01:00:00;00');
    const ndf = projectRate('29.97');
    expect(timecode(framesOf(3600, ndf), ndf)).toBe('00:59:56:12');
  });
});

describe('EDL: one frame rate per list', () => {
  test('a mixed-rate list is written at the most common rate; other clips are converted and say so', () => {
    nextId = 1; // reels come from the clip files' names: clip-1.mp4 is CLIP1
    const a = clip({ fps: 25, start_s: 1, end_s: 2 });
    const b = clip({ fps: 29.97, start_s: 2.4, end_s: 3.2 });
    const c = clip({ fps: 25, start_s: 0, end_s: 0.5 });
    const edl = clipsEdl([a, b, c], listRate(asItems([a, b, c]), 'auto'));
    expect(edl).toContain('FCM: NON-DROP FRAME');
    expect(events(edl)).toEqual([
      ['001', 'CLIP1', 'AA/V', 'C', '00:00:01:00', '00:00:02:00', '01:00:00:00', '01:00:01:00'],
      ['002', 'CLIP2', 'AA/V', 'C', '00:00:02:10', '00:00:03:05', '01:00:01:00', '01:00:01:20'],
      ['003', 'CLIP3', 'AA/V', 'C', '00:00:00:00', '00:00:00:13', '01:00:01:20', '01:00:02:08'],
    ]);
    expect(edl).toContain('* COMMENT: SOURCE 29.97 FPS, TIMECODES CONVERTED TO 25');
    for (const tc of events(edl).flatMap((e) => e.slice(4))) expect(Number(tc.slice(-2))).toBeLessThan(25);
  });

  test('the project rate wins over the clips; 29.97 DF writes drop-frame timecodes from 01:00:00;00', () => {
    const a = clip({ fps: 10, start_s: 60, end_s: 61 });
    const edl = clipsEdl([a], listRate(asItems([a]), '29.97-df'));
    expect(edl).toContain('FCM: DROP FRAME');
    expect(events(edl)[0]?.slice(4)).toEqual(['00:00:59;28', '00:01:01;00', '01:00:00;00', '01:00:01;00']); // 60 s is 1798.2 frames at 29.97
    expect(edl).toContain('SOURCE 10 FPS, TIMECODES CONVERTED TO 29.97 DF');
  });

  test('audio events only for clips with sound', () => {
    const loud = clip({ has_audio: true });
    const silent = clip({ has_audio: false });
    const unknown = clip({ has_audio: null, state: 'queued', path: null, fps: null });
    expect(events(clipsEdl([loud, silent, unknown], rateOf(25))).map((e) => e[2])).toEqual(['AA/V', 'V', 'V']);
  });

  test('a list whose rate cannot be known is refused with the reason', () => {
    const pending = [
      clip({ fps: null, state: 'queued', path: null }),
      clip({ fps: null, state: 'cutting', path: null }),
    ];
    expect(() => listRate(asItems(pending), 'auto')).toThrow(/no clip has been cut yet.*Choose the project frame rate/);
    expect(listRate(asItems(pending), '24').num).toBe(24);
  });
});

interface ParsedXml {
  version: string;
  formats: Record<string, Record<string, string>>;
  sequence: Record<string, string>;
  assets: Record<string, string>[];
  clips: Record<string, string>[];
}

/** Parses with Python's XML parser and checks every reference resolves: the structure an importer relies on. */
async function parseFcpxml(text: string): Promise<ParsedXml> {
  const py = `
import json, sys, xml.etree.ElementTree as ET
root = ET.fromstring(sys.stdin.read())
ids = {e.get('id'): e for e in root.find('resources')}
formats = {i: dict(e.attrib) for i, e in ids.items() if e.tag == 'format'}
seq = root.find('./library/event/project/sequence')
assert seq.get('format') in formats, 'sequence format'
for a in root.iter('asset'): assert a.get('format') in formats and a.find('media-rep') is not None
for c in root.iter('asset-clip'): assert ids[c.get('ref')].tag == 'asset' and c.get('format') in formats
print(json.dumps({'version': root.get('version'), 'formats': formats, 'sequence': dict(seq.attrib),
  'assets': [dict(a.attrib) for a in root.iter('asset')], 'clips': [dict(c.attrib) for c in root.iter('asset-clip')]}))`;
  const child = run('python3', ['-c', py]);
  child.child.stdin?.end(text);
  return JSON.parse((await child).stdout) as ParsedXml;
}

describe('FCPXML', () => {
  test('the sequence has the project format; assets keep theirs; hasAudio only where there is sound', async () => {
    const a = clip({ fps: 30, width: 1280, height: 720, has_audio: true, duration_s: 2 });
    const b = clip({ fps: 25, width: 1920, height: 1080, has_audio: false, duration_s: 1.2 });
    const c = clip({ fps: 25, width: 1920, height: 1080, has_audio: true, duration_s: 0.5 });
    const x = await parseFcpxml(clipsFcpxml([a, b, c], listRate(asItems([a, b, c]), 'auto')));
    expect(x.version).toBe('1.9');
    expect(x.formats[x.sequence.format ?? '']).toMatchObject({ frameDuration: '1/25s', width: '1920', height: '1080' });
    expect(x.sequence.tcFormat).toBe('NDF');
    expect(x.assets.map((s) => s.hasAudio ?? null)).toEqual(['1', null, '1']);
    expect(x.formats[x.assets[0]?.format ?? '']).toMatchObject({ frameDuration: '1/30s', width: '1280' });
    // Each event is the hit (1 s, no handles) clamped to its file, as in the EDL: never the whole file, never longer.
    expect(x.clips.map((s) => [s.offset, s.duration])).toEqual([
      ['0s', '1s'],
      ['1s', '1s'],
      ['2s', '13/25s'],
    ]);
    expect(x.sequence.duration).toBe('63/25s');
  });

  test('a 29.97 DF project: 1001/30000s frames, DF timecode, offsets on its frame grid', async () => {
    const a = clip({ fps: 25, duration_s: 1 });
    const b = clip({ fps: 25, duration_s: 1 });
    const x = await parseFcpxml(clipsFcpxml([a, b], listRate(asItems([a, b]), '29.97-df')));
    expect(x.formats[x.sequence.format ?? '']?.frameDuration).toBe('1001/30000s');
    expect(x.sequence.tcFormat).toBe('DF');
    expect(x.clips.map((s) => s.offset)).toEqual(['0s', '1001/1000s']);
  });
});
