import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  makeTimecodeOriginal,
  TIMECODE_ORIGINALS,
  type TimecodeOriginalName,
} from '../../../../test/fixtures/timecode-originals';
import { tempDir } from '../../../../test/helpers/temp';
import { readOriginalIdentity } from '../../media/original-identity';
import { mediaOf, type ExportItem, type ExportMedia } from './export-item';
import { listRate } from './list-rate';
import { renderItems } from './render';
import { parseTimecode, timecode } from '../../../shared/timecode';

let dir: string;
let cleanup: () => Promise<void>;
const media = new Map<TimecodeOriginalName, ExportMedia>();

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-export-tc-'));
  for (const name of Object.keys(TIMECODE_ORIGINALS) as TimecodeOriginalName[]) {
    // A name an URL must escape: spaces, '#', '%', non-ASCII.
    const path = await makeTimecodeOriginal(
      name,
      dir,
      `${name} take #1 50% é${TIMECODE_ORIGINALS[name].file.slice(-4)}`,
    );
    media.set(name, mediaOf('original', path, await readOriginalIdentity(path), 0));
  }
}, 60_000);
afterAll(async () => cleanup?.());

function item(m: ExportMedia, id: number, start: number, end: number, handles: number): ExportItem {
  return {
    id,
    label: `hit ${id}`,
    videoNo: `v${id}`,
    videoName: 'proxy.mp4',
    start,
    end,
    handles,
    query: 'boat & "harbour"',
    text: 'a <boat>',
    score: 0.5,
    tags: ['a'],
    notes: '',
    media: m,
    clip: null,
  };
}

/** Each material with the events expected on the original's own timecode (handles included, clamped to its 2 s). */
const CASES: { name: TimecodeOriginalName; events: [number, number, number, string, string][] }[] = [
  // 29.97 DF from 00:59:59;28: 0.5-1.5 s is frames 15-45, 0.4 s of handles 12 frames; ;00 and ;01 are not skipped at
  // minute 60 (a tenth minute). The second event's handles reach past both ends of the 60-frame file: clamped.
  {
    name: 'df2997',
    events: [
      [0.5, 1.5, 0.4, '01:00:00;01', '01:00:01;25'],
      [0.1, 1.9, 1, '00:59:59;28', '01:00:01;28'],
    ],
  },
  // 23.976 counts at base 24 from 14:22:09:23: 0.5 s is frame 12, 1.5 s frame 36.
  {
    name: 'film23976',
    events: [
      [0.5, 1.5, 0, '14:22:10:11', '14:22:11:11'],
      [1.9, 2, 0.25, '14:22:11:15', '14:22:11:23'], // 46-48 with 6 frames of handles: the out clamped
    ],
  },
  // 25 in MXF from 10:00:00:00: 0.52-1.48 s is frames 13-37, 0.2 s of handles 5 frames.
  {
    name: 'pal25',
    events: [
      [0.52, 1.48, 0.2, '10:00:00:08', '10:00:01:17'],
      [0, 0.04, 0, '10:00:00:00', '10:00:00:01'],
    ],
  },
];

const xmlParser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: () => false });
const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
/** FCPXML "N/Ds" (or "Ns") as whole frames of num/den fps. */
const rationalFrames = (t: string, num: number, den: number): number => {
  const m = /^(\d+)(?:\/(\d+))?s$/.exec(t);
  if (!m) throw new Error(`not a rational time: ${t}`);
  return (Number(m[1]) / Number(m[2] ?? 1)) * (num / den);
};

describe.each(CASES)('exports of $name material point at the original at its source timecode', ({ name, events }) => {
  const get = (): { m: ExportMedia; items: ExportItem[]; render: (f: Parameters<typeof renderItems>[0]) => string } => {
    const m = media.get(name);
    if (!m) throw new Error('fixture missing');
    const items = events.map(([s, e, h], i) => item(m, i + 1, s, e, h));
    return { m, items, render: (f) => renderItems(f, items, listRate(items, 'auto')) };
  };
  const expected = (): { tcIn: string; tcOut: string }[] => events.map(([, , , tcIn, tcOut]) => ({ tcIn, tcOut }));
  const frames = (tc: string): number => {
    const r = get().m.rate;
    const f = parseTimecode(tc, r);
    if (f === null) throw new Error(`bad timecode ${tc}`);
    return f;
  };

  test('EDL: reel, FROM CLIP NAME the original, source in/out its timecode, record laid end to end', () => {
    const { m, render } = get();
    const lines = render('edl').split('\r\n');
    const evs = lines.filter((l) => /^\d{3} /.test(l)).map((l) => l.split(/\s+/));
    expect(evs.map((e) => ({ tcIn: e[4], tcOut: e[5] }))).toEqual(expected());
    expect(evs.every((e) => e[1] === TIMECODE_ORIGINALS[name].reel)).toBe(true);
    expect(lines.filter((l) => l.startsWith('* FROM CLIP NAME: '))).toEqual(
      events.map(() => `* FROM CLIP NAME: ${m.name}`),
    );
    expect(evs[1]?.[6]).toBe(evs[0]?.[7]); // record out of the first is record in of the second
  });

  test('FCPXML: asset src the file URL, start its timecode; each clip inside its asset, frame-exact', () => {
    const { m, render } = get();
    const doc = xmlParser.parse(render('fcpxml')) as {
      fcpxml: {
        resources: { asset: Record<string, unknown> };
        library: { event: { project: { sequence: { spine: { 'asset-clip': unknown } } } } };
      };
    };
    const asset = doc.fcpxml.resources.asset as { start: string; duration: string; 'media-rep': { src: string } };
    expect(fileURLToPath(asset['media-rep'].src)).toBe(m.path);
    const { num, den } = m.rate;
    expect(rationalFrames(asset.start, num, den)).toBe(m.startFrame);
    const clips = asArray(doc.fcpxml.library.event.project.sequence.spine['asset-clip']) as {
      start: string;
      duration: string;
    }[];
    const assetEnd = rationalFrames(asset.start, num, den) + rationalFrames(asset.duration, num, den);
    expect(
      clips.map((c) => ({
        tcIn: timecode(rationalFrames(c.start, num, den), m.rate),
        tcOut: timecode(rationalFrames(c.start, num, den) + rationalFrames(c.duration, num, den), m.rate),
      })),
    ).toEqual(expected());
    for (const c of clips)
      expect(rationalFrames(c.start, num, den) + rationalFrames(c.duration, num, den)).toBeLessThanOrEqual(assetEnd);
  });

  test('Premiere XML: pathurl, file timecode string and frame, clipitem in/out in frames of the original', () => {
    const { m, render } = get();
    const doc = xmlParser.parse(render('xmeml')) as {
      xmeml: { version: string; sequence: { media: { video: { track: { clipitem: unknown } } } } };
    };
    expect(doc.xmeml.version).toBe('4');
    const items = asArray(doc.xmeml.sequence.media.video.track.clipitem) as {
      in: number;
      out: number;
      file: {
        pathurl?: string;
        timecode?: { string: string; frame: number; reel: { name: string } };
        rate?: { ntsc: string };
      };
    }[];
    const file = items[0]?.file;
    expect(fileURLToPath((file?.pathurl ?? '').replace('file://localhost/', 'file:///'))).toBe(m.path);
    expect(file?.timecode?.string).toBe(TIMECODE_ORIGINALS[name].timecode);
    expect(file?.timecode?.frame).toBe(m.startFrame);
    expect(file?.rate?.ntsc).toBe(m.rate.den === 1001 ? 'TRUE' : 'FALSE');
    expect(
      items.map((c) => ({
        tcIn: timecode(m.startFrame + c.in, m.rate),
        tcOut: timecode(m.startFrame + c.out, m.rate),
      })),
    ).toEqual(expected());
  });

  test('OpenTimelineIO: Clip.2 source_range on the original timecode, ExternalReference.1 to the file', () => {
    const { m, render } = get();
    const otio = JSON.parse(render('otio')) as {
      OTIO_SCHEMA: string;
      tracks: {
        children: {
          children: {
            OTIO_SCHEMA: string;
            source_range: { start_time: { value: number; rate: number }; duration: { value: number } };
            media_references: {
              DEFAULT_MEDIA: {
                OTIO_SCHEMA: string;
                target_url: string;
                available_range: { start_time: { value: number }; duration: { value: number } };
              };
            };
          }[];
        }[];
      };
    };
    expect(otio.OTIO_SCHEMA).toBe('Timeline.1');
    const clips = otio.tracks.children[0]?.children ?? [];
    expect(clips.every((c) => c.OTIO_SCHEMA === 'Clip.2')).toBe(true);
    const ref = clips[0]?.media_references.DEFAULT_MEDIA;
    expect(ref?.OTIO_SCHEMA).toBe('ExternalReference.1');
    expect(fileURLToPath(ref?.target_url ?? '')).toBe(m.path);
    expect(ref?.available_range.start_time.value).toBe(m.startFrame);
    expect(clips[0]?.source_range.start_time.rate).toBeCloseTo(m.rate.num / m.rate.den, 9);
    expect(
      clips.map((c) => ({
        tcIn: timecode(c.source_range.start_time.value, m.rate),
        tcOut: timecode(c.source_range.start_time.value + c.source_range.duration.value, m.rate),
      })),
    ).toEqual(expected());
  });

  test('CSV: the original and its source timecode columns agree with every other format', () => {
    const { m, render } = get();
    const [head, ...rows] = render('csv')
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    const cols = (line: string): string[] =>
      [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((x) => (x[1] ?? '').replace(/""/g, '"'));
    const names = cols(head ?? '');
    const at = (row: string, col: string): string => cols(row)[names.indexOf(col)] ?? '';
    expect(rows.map((r) => ({ tcIn: at(r, 'source_tc_in'), tcOut: at(r, 'source_tc_out') }))).toEqual(expected());
    expect(rows.map((r) => at(r, 'original_file'))).toEqual(events.map(() => m.path));
    expect(rows.map((r) => at(r, 'reel'))).toEqual(events.map(() => TIMECODE_ORIGINALS[name].reel));
    // The hit itself, without handles, is inside the event.
    for (const r of rows) {
      expect(frames(at(r, 'hit_tc_in'))).toBeGreaterThanOrEqual(frames(at(r, 'source_tc_in')));
      expect(frames(at(r, 'hit_tc_out'))).toBeLessThanOrEqual(frames(at(r, 'source_tc_out')));
    }
  });
});
