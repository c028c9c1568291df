import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePhotoClip, fixturePath } from '../../../test/fixtures/media';
import { tempDir } from '../../../test/helpers/temp';
import { FACE_MODEL } from './analyzers/face-match';
import { analyzeVideo, createAnalyzers, type AnalyzeOptions, type AnalyzeResult } from './analyze-video';
import type { Analyzer, FrameAnalyzer } from './types';

// Models load once for the file: the service keeps its analyzers alive the same way.
const analyzers = createAnalyzers();
const cleanups: (() => Promise<void>)[] = [];
let photoClip = '';

async function analyze(videoPath: string, extra: Partial<AnalyzeOptions> = {}): Promise<AnalyzeResult> {
  const { dir, cleanup } = await tempDir('reelsync-indexer-');
  cleanups.push(cleanup);
  return analyzeVideo({ videoPath, workDir: dir, analyzers, ...extra });
}

async function expectJpeg(file: string): Promise<void> {
  const bytes = await readFile(file);
  expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  expect([...bytes.subarray(-2)]).toEqual([0xff, 0xd9]);
}

function expectCovering(result: AnalyzeResult): void {
  const { segments, durationSeconds } = result;
  expect(segments.length).toBeGreaterThan(0);
  expect(segments[0]?.start).toBe(0);
  expect(segments[segments.length - 1]?.end).toBeCloseTo(durationSeconds, 6);
  segments.forEach((s, i) => {
    expect(s.index).toBe(i);
    if (i > 0) expect(s.start).toBe(segments[i - 1]?.end);
  });
}

beforeAll(async () => {
  photoClip = await ensurePhotoClip();
  for (const analyzer of analyzers) expect(await analyzer.available(), analyzer.name).toEqual({ ok: true });
});

afterAll(async () => {
  await Promise.all(analyzers.map((a) => a.close()));
  await Promise.all(cleanups.map((c) => c()));
});

describe('analyzeVideo', () => {
  it('reads the drawn title, with keyframes, a poster and monotonic progress to 100', async () => {
    const progress: number[] = [];
    const result = await analyze(fixturePath('drawnTextMp4'), { onProgress: (p) => progress.push(p) });
    expectCovering(result);
    expect(result.durationSeconds).toBeCloseTo(4, 1);
    const text = result.segments.map((s) => s.ocrText).join(' ');
    expect(text).toContain('HARBOUR');
    expect(text).toContain('LIGHTS');
    expect(result.segments[0]?.caption).toBe('On-screen text "HARBOUR LIGHTS".');
    for (const s of result.segments) await expectJpeg(s.keyframePath);
    await expectJpeg(result.posterPath);
    expect(progress.length).toBeGreaterThan(3);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress[progress.length - 1]).toBe(100);
    expect(result.words).toEqual([]);
    expect(result.missingEngines).toEqual([]);
    expect(result.analyzers.map((a) => a.name).sort()).toEqual([
      'colour',
      'drawing',
      'motion',
      'objects',
      'ocr',
      'people',
      'speech',
    ]);
  });

  it('transcribes speech with word times and maps it to segments', async () => {
    const result = await analyze(fixturePath('speechMp4'));
    const words = result.words.map((w) => w.word);
    expect(words).toEqual(expect.arrayContaining(['sunset', 'boats']));
    expect(words.some((w) => w === 'harbor' || w === 'harbour')).toBe(true);
    for (const w of result.words) {
      expect(w.end).toBeGreaterThan(w.start);
      expect(w.end).toBeLessThanOrEqual(result.durationSeconds + 0.5);
    }
    expect(result.segments.map((s) => s.transcript).join(' ')).toBe(words.join(' '));
    expect(result.segments[0]?.caption).toMatch(/^Speech: "we filmed the sunset/);
  });

  it('honours the transcription prompt as vocabulary hints', async () => {
    const result = await analyze(fixturePath('speechMp4'), { transcriptionPrompt: 'Harbour lights festival' });
    expect(result.words.map((w) => w.word)).toContain('harbour');
    expect(result.words.map((w) => w.word)).not.toContain('harbor');
  });

  it('finds people, faces and objects at the scene cuts of the photo clip', async () => {
    const result = await analyze(photoClip);
    expectCovering(result);
    expect(result.segments.map((s) => [s.start, s.end])).toEqual([
      [0, 3],
      [3, 6],
      [6, 9],
    ]);
    const [astronaut, motorcycle, coffee] = result.segments;
    expect(astronaut?.labels.map((l) => l.label)).toContain('person');
    expect(astronaut?.faces).toHaveLength(1);
    expect(astronaut?.faces[0]?.descriptor.length).toBe(128);
    expect(astronaut?.faces[0]?.model).toBe(FACE_MODEL);
    expect(astronaut?.faces[0]?.score).toBeGreaterThan(0.5);
    const objects = motorcycle?.labels.filter((l) => l.source === 'objects:centernet');
    expect(objects?.[0]).toMatchObject({ label: 'motorcycle' });
    // The pixel descriptors: the motorcycle's colour from its box, the still photo's camera, the garage's colours.
    const described = motorcycle?.labels.map((l) => `${l.source} ${l.label}`);
    expect(described).toEqual(
      expect.arrayContaining(['colour:object red motorcycle', 'motion:camera static', 'colour:frame gray']),
    );
    expect(motorcycle?.caption).toMatch(/^A motorcycle/);
    expect(coffee?.labels.map((l) => l.label)).toContain('cup');
    for (const s of result.segments) for (const l of s.labels) expect(l.score).toBeGreaterThan(0);
  });

  it('splits footage longer than the maximum segment length', async () => {
    const result = await analyze(fixturePath('phoneH264Mp4'), { maxSegmentSeconds: 1 });
    expectCovering(result);
    expect(result.segments).toHaveLength(3);
    for (const s of result.segments) {
      expect(s.end - s.start).toBeLessThanOrEqual(1 + 1e-9);
      await expectJpeg(s.keyframePath);
    }
    expect(new Set(result.segments.map((s) => s.keyframePath)).size).toBe(3);
  });

  it('reports a missing engine and records a failing analyzer without losing the rest', async () => {
    const missing: Analyzer = {
      kind: 'audio',
      name: 'whisper',
      version: '0',
      available: async () => ({ ok: false, reason: 'no model file' }),
      analyze: async () => {
        throw new Error('must not run');
      },
      close: async () => {},
    };
    const broken: FrameAnalyzer = {
      kind: 'frame',
      name: 'broken',
      version: '1',
      available: async () => ({ ok: true }),
      analyze: async () => {
        throw new Error('model exploded');
      },
      close: async () => {},
    };
    const ocr = analyzers.find((a) => a.name === 'ocr');
    if (!ocr) throw new Error('no ocr analyzer');
    const { dir, cleanup } = await tempDir('reelsync-indexer-');
    cleanups.push(cleanup);
    const result = await analyzeVideo({
      videoPath: fixturePath('drawnTextMp4'),
      workDir: dir,
      analyzers: [ocr, missing, broken],
    });
    expect(result.missingEngines).toEqual([{ analyzer: 'whisper', reason: 'no model file' }]);
    expect(result.failures).toEqual([{ analyzer: 'broken', segmentIndex: 0, message: 'model exploded' }]);
    expect(result.segments[0]?.ocrText).toBe('HARBOUR LIGHTS');
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const run = analyze(photoClip, {
      signal: controller.signal,
      onProgress: (_p, stage) => {
        if (stage === 'analyzing') controller.abort(new Error('stop now'));
      },
    });
    await expect(run).rejects.toThrow('stop now');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('rejects a file without a readable video stream', async () => {
    await expect(analyze(fixturePath('notVideoMp4'))).rejects.toThrow();
  });
});

describe('analyzeVideo with its default analyzers', () => {
  it('loads, uses and closes every available analyzer itself', async () => {
    const { dir, cleanup } = await tempDir('reelsync-indexer-');
    cleanups.push(cleanup);
    const result = await analyzeVideo({ videoPath: fixturePath('drawnTextMp4'), workDir: dir });
    expect(result.segments[0]?.ocrText).toBe('HARBOUR LIGHTS');
    expect(result.missingEngines).toEqual([]);
  });
});
