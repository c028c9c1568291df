import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ClipsStore, type ClipRow } from '../../src/main/library/clips-store';
import { startLibrary, type TestLibrary } from '../helpers/library';
import { tempDir } from '../helpers/temp';
import { clipAt } from '../fixtures/generated-clips';
import { patternWithTone } from '../fixtures/test-clips';

const run = promisify(execFile);

let dir: string;
let cleanup: () => Promise<void>;
let local: TestLibrary;
const clips: Record<'pal' | 'ntsc' | 'silent', ClipRow> = {} as Record<'pal' | 'ntsc' | 'silent', ClipRow>;

/** A 4 s h264 test pattern at `fps`, 320x180, with a 48 kHz aac tone unless `silent`. */
function footage(name: string, fps: number, silent: boolean): Promise<string> {
  return clipAt(patternWithTone(fps, silent), join(dir, name));
}

/** Saves a clip of `source` (its local original) and waits for the real cut, probe and thumbnail. */
async function cutClip(source: string, videoNo: string, start: number, end: number): Promise<ClipRow> {
  const c = local.feature.clips;
  local.feature.queue.pause('user');
  const saved = c.save({
    videoNo,
    videoName: videoNo,
    start,
    end,
    handles: 0,
    mode: 'accurate',
    format: 'mp4',
    query: videoNo,
    text: '',
    tags: [],
    notes: '',
  });
  new ClipsStore(local.db).setSource(saved.id, source, null);
  local.feature.queue.resume();
  return c.settled(saved.id);
}

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-export-'));
  local = await startLibrary(dir, undefined);
  const [pal, ntsc, silent] = await Promise.all([
    footage('pal.mp4', 25, false),
    footage('ntsc.mp4', 30, false),
    footage('silent.mp4', 30, true),
  ]);
  clips.pal = await cutClip(pal, 'pal', 1, 2);
  clips.ntsc = await cutClip(ntsc, 'ntsc', 0.5, 1.7);
  clips.silent = await cutClip(silent, 'silent', 2, 3);
}, 120_000);

afterAll(async () => {
  await local?.stop();
  await cleanup?.();
});

const events = (edl: string): string[][] =>
  edl
    .split('\r\n')
    .filter((l) => /^\d{3} /.test(l))
    .map((l) => l.split(/\s+/));

describe('exports of real cut clips (25 fps and 30 fps, one without sound)', () => {
  test('each cut clip was probed: its rate and whether it has sound are stored', () => {
    for (const c of Object.values(clips)) expect(c.state).toBe('ready');
    expect([clips.pal.fps, clips.pal.has_audio]).toEqual([25, true]);
    expect([clips.ntsc.fps, clips.ntsc.has_audio]).toEqual([30, true]);
    expect([clips.silent.fps, clips.silent.has_audio]).toEqual([30, false]);
  });

  test('EDL at the project rate 25: every timecode converted, audio events only for clips with sound', async () => {
    const ids = [clips.pal.id, clips.ntsc.id, clips.silent.id];
    const { content } = await local.feature.clips.render('edl', ids, '25');
    expect(events(content)).toEqual([
      // No camera original on this computer: the events link the clip files, reels from their names (8 characters).
      ['001', 'PAL_1S00', 'AA/V', 'C', '00:00:01:00', '00:00:02:00', '01:00:00:00', '01:00:01:00'],
      ['002', 'NTSC_0S5', 'AA/V', 'C', '00:00:00:13', '00:00:01:18', '01:00:01:00', '01:00:02:05'],
      ['003', 'SILENT_2', 'V', 'C', '00:00:02:00', '00:00:03:00', '01:00:02:05', '01:00:03:05'],
    ]);
    expect(content).toContain('* COMMENT: SOURCE 30 FPS, TIMECODES CONVERTED TO 25');
    // Without a project rate the list takes the most common clip rate (two at 30): frames 00-29.
    const { content: auto } = await local.feature.clips.render('edl', ids);
    expect(events(auto)[0]?.slice(4)).toEqual(['00:00:01:00', '00:00:02:00', '01:00:00:00', '01:00:01:00']);
    expect(events(auto)[1]?.slice(4, 6)).toEqual(['00:00:00:15', '00:00:01:21']);
  });

  test('FCPXML parses; the sequence has the most common format; hasAudio only on the clips with sound', async () => {
    const file = join(dir, 'list.fcpxml');
    await writeFile(
      file,
      (await local.feature.clips.render('fcpxml', [clips.pal.id, clips.ntsc.id, clips.silent.id])).content,
    );
    const py = `
import json, sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
formats = {f.get('id'): dict(f.attrib) for f in root.iter('format')}
seq = root.find('./library/event/project/sequence')
print(json.dumps({'seq': formats[seq.get('format')], 'audio': [a.get('hasAudio') for a in root.iter('asset')]}))`;
    const parsed = JSON.parse((await run('python3', ['-c', py, file])).stdout) as {
      seq: Record<string, string>;
      audio: (string | null)[];
    };
    expect(parsed.seq).toMatchObject({ frameDuration: '1/30s', width: '320', height: '180' });
    expect(parsed.audio).toEqual(['1', '1', null]);
  });

  test('a clip cut before its sound was recorded is probed at export', async () => {
    local.db.prepare('UPDATE clips SET has_audio = NULL WHERE id IN (?, ?)').run(clips.pal.id, clips.silent.id);
    const { content } = await local.feature.clips.render('edl', [clips.pal.id, clips.silent.id], '25');
    expect(events(content).map((e) => e[2])).toEqual(['AA/V', 'V']);
    expect(local.feature.clips.get(clips.silent.id).has_audio).toBe(false);
    expect(local.feature.clips.get(clips.pal.id).has_audio).toBe(true);
  });
});
