import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photoPath } from '../../../../test/fixtures/media';
import { stillFrame } from '../../../../test/helpers/still-frame';
import { tempDir } from '../../../../test/helpers/temp';
import type { SegmentFrame } from '../types';
import { detectRgb, loadDetectionEngine, packageDir } from './human-engine';
import { PeopleAnalyzer } from './people';

const analyzer = new PeopleAnalyzer();
let dir = '';
let cleanup: () => Promise<void> = async () => {};

function frame(name: string, args: string[]): Promise<SegmentFrame> {
  return stillFrame(dir, name, args);
}

async function labels(segment: SegmentFrame): Promise<Record<string, string[]>> {
  const found = (await analyzer.analyze(segment)).labels ?? [];
  const by: Record<string, string[]> = {};
  for (const l of found) {
    expect(l.score).toBeGreaterThan(0);
    expect(l.score).toBeLessThanOrEqual(1);
    (by[l.source] ??= []).push(l.label);
  }
  return by;
}

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-people-'));
  expect(await analyzer.available()).toEqual({ ok: true });
});

afterAll(async () => {
  await analyzer.close();
  await cleanup();
});

describe('people analyzer on real photographs', () => {
  it('describes the astronaut portrait: one person, medium shot, smiling, a grown-up', async () => {
    const astronaut = await photoPath('astronaut');
    const found = await labels(
      await frame('astronaut', ['-i', astronaut, '-vf', 'scale=-2:360,pad=640:360:(ow-iw)/2:0']),
    );
    expect(found['people:count']).toEqual(['one person']);
    expect(found['people:shot']).toEqual(['medium shot']);
    expect(found['people:face']).toContain('smiling');
    const bands = (found['people:face'] ?? []).filter((w) => w !== 'smiling');
    expect(bands).toHaveLength(1);
    expect(['young', 'adult']).toContain(bands[0]);
  });

  it('tells a close-up from a wide shot of the same face', async () => {
    const astronaut = await photoPath('astronaut');
    const close = await labels(await frame('close', ['-i', astronaut, '-vf', 'crop=240:135:160:70,scale=640:360']));
    expect(close['people:shot']).toEqual(['close-up']);
    const wide = await labels(await frame('wide', ['-i', astronaut, '-vf', 'scale=140:-2,pad=640:360:250:110:gray']));
    expect(wide['people:shot']).toEqual(['wide shot']);
    expect(wide['people:count']).toEqual(['one person']);
  });

  it('counts two people side by side, and a group in a group photo', async () => {
    const pair = await frame('pair', [
      '-i',
      await photoPath('astronaut'),
      '-i',
      await photoPath('camera'),
      '-filter_complex',
      '[0]scale=-2:360,setsar=1,format=rgb24[a];[1]scale=-2:360,setsar=1,format=rgb24[b];[a][b]hstack',
    ]);
    expect((await labels(pair))['people:count']).toEqual(['two people']);
    // The first of face-api's own sample photos (three people), shipped in its package.
    const sample = join(packageDir('@vladmandic/face-api'), 'demo', 'sample1.jpg');
    const group = await labels(await frame('group', ['-i', sample, '-vf', 'scale=640:-2']));
    expect(group['people:count']).toContain('group');
  });

  it('says nothing about people in a photo of a cup of coffee, and spends no pose pass on it', async () => {
    const coffee = await frame('coffee', ['-i', await photoPath('coffee'), '-vf', 'scale=640:-2']);
    expect(await labels(coffee)).toEqual({});
    const engine = await loadDetectionEngine();
    const found = await detectRgb(engine, await coffee.rgb(), coffee.width, coffee.height);
    expect(found.people).toEqual({ persons: [], faces: [], bodies: [], gestures: [] });
  });

  it('detects each keyframe once for the objects and people analyzers, and leaks no tensor', async () => {
    const astronaut = await frame('again', ['-i', await photoPath('astronaut'), '-vf', 'scale=640:-2']);
    const engine = await loadDetectionEngine();
    const rgb = await astronaut.rgb();
    const first = detectRgb(engine, rgb, astronaut.width, astronaut.height);
    expect(detectRgb(engine, rgb, astronaut.width, astronaut.height)).toBe(first);
    const found = await first;
    expect(found.people.bodies.length).toBe(1);
    expect(found.faces[0]?.age).toBeGreaterThan(13);
    // A grown-up's face: face-api's reading alone, no child check (face-age.ts).
    expect(found.people.faces[0]?.ages).toEqual([found.faces[0]?.age]);

    const before = engine.tf.memory().numTensors;
    const copy = Uint8Array.from(rgb);
    await detectRgb(engine, copy, astronaut.width, astronaut.height);
    expect(engine.tf.memory().numTensors).toBe(before);
  });
});
