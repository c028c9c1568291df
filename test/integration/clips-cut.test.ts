import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ffprobe } from '../../src/common/media/ffprobe';
import { COUNTER, frameNumberAt, makeCounterVideo, videoFrameCount } from '../helpers/frame-counter';
import { startLibrary, syncOriginal, type TestLibrary } from '../helpers/library';
import type { TestService } from '../helpers/service';
import { useService } from '../helpers/use-service';
import { tempDir } from '../helpers/temp';

const run = promisify(execFile);
const sha256 = async (file: string): Promise<string> =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');

let service: TestService;
let dir: string;
let cleanup: () => Promise<void>;
let original: string;
let videoNo: string;
let local: TestLibrary;

const testService = useService({ config: { indexer: { paused: true } } });
beforeAll(async () => {
  service = testService();
  ({ dir, cleanup } = await tempDir('reelsync-clips-'));
  const watch = join(dir, 'footage');
  await mkdir(watch);
  original = await makeCounterVideo(watch, 'counter.mp4');
  videoNo = await syncOriginal(dir, watch, service);
  local = await startLibrary(dir, service);
});

afterAll(async () => {
  await local?.stop();
  await cleanup?.();
});

describe('clips from a local original', () => {
  test('frame-accurate by default: the file starts on the frame of --start and lasts end - start', async () => {
    const saved = local.feature.clips.save({
      videoNo,
      start: 2,
      end: 3,
      handles: 0,
      mode: 'accurate',
      format: 'mp4',
      query: 'counter',
      text: '',
      tags: [],
      notes: '',
    });
    const clip = await local.feature.clips.settled(saved.id);
    expect(clip.error).toBeNull();
    expect(clip.state).toBe('ready');
    expect(clip.source_path).toBe(original);
    expect(clip.download_id).toBeNull();
    const path = clip.path ?? '';
    expect(await frameNumberAt(path, 0)).toBe(2 * COUNTER.fps);
    expect(await videoFrameCount(path)).toBe(COUNTER.fps);
    expect(await frameNumberAt(path, COUNTER.fps - 1)).toBe(3 * COUNTER.fps - 1);
    const probe = await ffprobe(path, { kind: 'storedVideo' });
    expect(probe.video?.codec).toBe('h264');
    expect(probe.audio?.codec).toBe('aac');
    expect(Math.abs((probe.durationSeconds ?? 0) - 1)).toBeLessThan(0.05);
    expect(clip.thumbnail_path && (await readFile(clip.thumbnail_path)).subarray(0, 2).toString('hex')).toBe('ffd8');
  });

  test('handles widen the range on both sides; the output format is honoured; an existing name is never overwritten', async () => {
    const outDir = join(dir, 'out');
    await mkdir(outDir);
    await writeFile(join(outDir, 'take.mov'), 'precious');
    const saved = local.feature.clips.save({
      videoNo,
      start: 2,
      end: 3,
      handles: 0.4,
      mode: 'accurate',
      format: 'mov',
      outDir,
      outName: 'take.mov',
      query: '',
      text: '',
      tags: [],
      notes: '',
    });
    const clip = await local.feature.clips.settled(saved.id);
    expect(clip.state).toBe('ready');
    expect(basename(clip.path ?? '')).toBe('take (1).mov');
    expect(await readFile(join(outDir, 'take.mov'), 'utf8')).toBe('precious');
    expect(await frameNumberAt(clip.path ?? '', 0)).toBe(Math.round(1.6 * COUNTER.fps));
    expect(await videoFrameCount(clip.path ?? '')).toBe(Math.round(1.8 * COUNTER.fps));
    expect((await ffprobe(clip.path ?? '', { kind: 'storedVideo' })).container).toContain('mov');
  });

  test('handles are clamped to the video', async () => {
    const clip = await local.feature.clips.settled(
      local.feature.clips.save({
        videoNo,
        start: 0.2,
        end: 7.9,
        handles: 5,
        mode: 'accurate',
        format: 'mkv',
        query: '',
        text: '',
        tags: [],
        notes: '',
      }).id,
    );
    expect(clip.state).toBe('ready');
    expect(await frameNumberAt(clip.path ?? '', 0)).toBe(0);
    expect(await videoFrameCount(clip.path ?? '')).toBe(COUNTER.fps * COUNTER.seconds);
  });

  test('stream copy is lossless but starts on the keyframe at or before the start (the only one is frame 0 here)', async () => {
    const clip = await local.feature.clips.settled(
      local.feature.clips.save({
        videoNo,
        start: 2,
        end: 3,
        handles: 0,
        mode: 'copy',
        format: 'mp4',
        query: '',
        text: '',
        tags: [],
        notes: '',
      }).id,
    );
    expect(clip.state).toBe('ready');
    expect(await frameNumberAt(clip.path ?? '', 0)).toBe(0);
  });

  test('a range outside the video fails the clip without retrying', async () => {
    const clip = await local.feature.clips.settled(
      local.feature.clips.save({
        videoNo,
        start: 20,
        end: 21,
        handles: 0,
        mode: 'accurate',
        format: 'mp4',
        query: '',
        text: '',
        tags: [],
        notes: '',
      }).id,
    );
    expect(clip.state).toBe('failed');
    expect(clip.error).toMatch(/outside the video/);
  });
});

describe('clips without a local original', () => {
  test('the video is downloaded through the API (byte-identical), then cut frame-accurately', async () => {
    const { dir: other, cleanup: cleanOther } = await tempDir('reelsync-clips-remote-');
    const remote = await startLibrary(other, service);
    try {
      const meta = await remote.feature.requireClient().getMetadata(videoNo);
      const saved = remote.feature.clips.save({
        videoNo,
        start: 4,
        end: 5.2,
        handles: 0,
        mode: 'accurate',
        format: 'mp4',
        query: 'frames',
        text: '',
        video: { bucket: meta?.video_bucket ?? '', blob: meta?.video_blob ?? '' },
        tags: [],
        notes: '',
      });
      const clip = await remote.feature.clips.settled(saved.id);
      expect(clip.error).toBeNull();
      const download = remote.feature.downloads.get(clip.download_id ?? -1);
      expect(download?.state).toBe('done');
      expect(clip.source_path).toBe(download?.path);
      expect(await sha256(download?.path ?? '')).toBe(await sha256(original));
      expect(await frameNumberAt(clip.path ?? '', 0)).toBe(4 * COUNTER.fps);
      expect(await videoFrameCount(clip.path ?? '')).toBe(Math.round(1.2 * COUNTER.fps));
    } finally {
      await remote.stop();
      await cleanOther();
    }
  });
});

describe('clips library', () => {
  test('local full-text search over text, notes and tags (diacritics folded, prefixes), tag filter, update', async () => {
    const c = local.feature.clips;
    const a = c.save({
      videoNo,
      start: 1,
      end: 2,
      handles: 0,
      mode: 'copy',
      format: 'mp4',
      query: 'harbour',
      text: 'two small boats leave the harbour',
      tags: ['boats'],
      notes: '',
    });
    const b = c.save({
      videoNo,
      start: 5,
      end: 6,
      handles: 0,
      mode: 'copy',
      format: 'mp4',
      query: 'cafe',
      text: 'a waiter at the café terrace',
      tags: [],
      notes: '',
    });
    await Promise.all([c.settled(a.id), c.settled(b.id)]);
    expect(c.search('harb', 10).map((r) => r.id)).toEqual([a.id]);
    expect(c.search('cafe terrace', 10).map((r) => r.id)).toEqual([b.id]);
    expect(c.search('(boats"', 10).map((r) => r.id)).toEqual([a.id]);
    expect(c.search('NEAR( " *', 10)).toEqual([]);
    c.update(b.id, { notes: 'use for the opening sequence', tags: ['opening', 'opening', 'b-roll'] });
    expect(c.search('opening', 10).map((r) => r.id)).toEqual([b.id]);
    expect(c.get(b.id).tags).toEqual(['opening', 'b-roll']);
    expect(c.list(1, 50, { tag: 'boats' }).rows.map((r) => r.id)).toEqual([a.id]);
    expect(await c.delete(a.id, true)).toBe(true);
    expect(c.search('harbour', 10)).toEqual([]);
  });

  test('exports: CSV, CMX3600 EDL and FCPXML parse and carry the ranges', async () => {
    const c = local.feature.clips;
    const clip = await c.settled(
      c.save({
        videoNo,
        videoName: 'counter.mp4',
        start: 2,
        end: 3,
        handles: 0.4,
        mode: 'accurate',
        format: 'mp4',
        query: 'boats, "quoted"',
        text: 'line one\nline two',
        tags: ['t1'],
        notes: '=SUM(A1)',
      }).id,
    );
    const csvFile = join(dir, 'clips.csv');
    const edlFile = join(dir, 'clips.edl');
    const xmlFile = join(dir, 'clips.fcpxml');
    await writeFile(csvFile, (await c.render('csv', [clip.id])).content);
    const edl = await c.render('edl', [clip.id]);
    await writeFile(edlFile, edl.content);
    await writeFile(xmlFile, (await c.render('fcpxml', [clip.id])).content);
    const py = `
import csv, json, sys, xml.etree.ElementTree as ET
rows = list(csv.DictReader(open(sys.argv[1], encoding='utf-8-sig', newline='')))
root = ET.parse(sys.argv[2]).getroot()
clips = root.findall('.//asset-clip')
print(json.dumps({'rows': rows, 'version': root.get('version'), 'clips': [dict(c.attrib) for c in clips],
  'markers': [dict(m.attrib) for m in root.findall('.//marker')], 'assets': [a.find('media-rep').get('src') for a in root.findall('.//asset')],
  'formats': [dict(f.attrib) for f in root.findall('.//format')]}))`;
    const { stdout } = await run('python3', ['-c', py, csvFile, xmlFile]);
    const parsed = JSON.parse(stdout) as {
      rows: Record<string, string>[];
      version: string;
      clips: Record<string, string>[];
      markers: Record<string, string>[];
      assets: string[];
      formats: Record<string, string>[];
    };
    expect(parsed.rows).toHaveLength(1);
    const row = parsed.rows[0] ?? {};
    expect(row.id).toBe(String(clip.id));
    expect(row.query).toBe('boats, "quoted"');
    expect(row.text).toBe('line one\nline two');
    expect(row.notes).toBe("'=SUM(A1)");
    expect(row.start_tc).toBe('00:00:02:00');
    expect(row.end_tc).toBe('00:00:03:00');
    expect(parsed.version).toBe('1.9');
    expect(parsed.formats[0]?.frameDuration).toBe('1/25s');
    // Every format links the original on this computer at its own time (no timecode: from zero) with the handles.
    expect(parsed.clips[0]?.duration).toBe('9/5s');
    expect(parsed.clips[0]?.start).toBe('8/5s');
    expect(parsed.markers[0]?.start).toBe('2s');
    expect(parsed.assets[0]).toBe(pathToFileURL(original).href);
    const events = edl.content.split('\r\n').filter((l) => /^\d{3} /.test(l));
    expect(events).toHaveLength(1);
    const m =
      /^(\d{3}) {2}(\S+)\s+(AA\/V|V)\s+C\s+(\d\d:\d\d:\d\d:\d\d) (\d\d:\d\d:\d\d:\d\d) (\d\d:\d\d:\d\d:\d\d) (\d\d:\d\d:\d\d:\d\d)$/.exec(
        events[0] ?? '',
      );
    expect(m?.slice(1)).toEqual(['001', 'COUNTER', 'AA/V', '00:00:01:15', '00:00:03:10', '01:00:00:00', '01:00:01:20']);
    expect(edl.content).toContain('* FROM CLIP NAME: counter.mp4');
    expect(edl.content.startsWith('TITLE: ')).toBe(true);
  });
});
