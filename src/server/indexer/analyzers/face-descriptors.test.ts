import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePhotoClip, photoPath } from '../../../../test/fixtures/media';
import { stillFrame } from '../../../../test/helpers/still-frame';
import { tempDir } from '../../../../test/helpers/temp';
import type { Face, SegmentFrame } from '../types';
import { euclideanDistance, FACE_MODEL, faceSimilarity, SAME_PERSON_DISTANCE } from './face-match';
import { loadDetectionEngine, packageDir } from './human-engine';
import { ObjectsAnalyzer } from './objects';

const analyzer = new ObjectsAnalyzer();
let dir = '';
let cleanup: () => Promise<void> = async () => {};

/** One 640 px wide frame from `input` through the ffmpeg filter `vf`, as a SegmentFrame. */
function frame(name: string, input: string[], vf: string): Promise<SegmentFrame> {
  return stillFrame(dir, name, [...input, '-vf', vf]);
}

async function facesOf(segment: SegmentFrame): Promise<Face[]> {
  return (await analyzer.analyze(segment)).faces ?? [];
}

function vector(face: Face | undefined): Float32Array {
  if (!face) throw new Error('no face');
  return Float32Array.from(face.descriptor);
}

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-faces-'));
  expect(await analyzer.available()).toEqual({ ok: true });
});

afterAll(async () => {
  await analyzer.close();
  await cleanup();
});

describe('face descriptors (human finds the faces, face-api describes them)', () => {
  it('describes one face in 128 numbers, closer to itself in another frame than to other people', async () => {
    // The astronaut as the indexer sees her: the photo clip's first keyframe, scaled to 640 px.
    const clip = await frame('astronaut-clip', ['-ss', '1', '-i', await ensurePhotoClip()], "scale='min(640,iw)':-2");
    // The same photo smaller, elsewhere on a grey frame, brighter.
    const moved = await frame(
      'astronaut-moved',
      ['-i', await photoPath('astronaut')],
      'scale=300:-2,eq=brightness=0.06,pad=640:360:300:30:color=gray',
    );
    // Three other people: the first of face-api's own sample photos, shipped in its package.
    const sample1 = join(packageDir('@vladmandic/face-api'), 'demo', 'sample1.jpg');
    const others = await frame('others', ['-i', sample1], 'scale=640:-2');

    const [a, b, c] = [await facesOf(clip), await facesOf(moved), await facesOf(others)];
    expect(a).toHaveLength(1);
    expect(b).toHaveLength(1);
    expect(c.length).toBeGreaterThanOrEqual(2);
    for (const f of [...a, ...b, ...c]) {
      expect(f.model).toBe(FACE_MODEL);
      expect(f.descriptor).toHaveLength(128);
      expect(f.descriptor.every(Number.isFinite)).toBe(true);
    }

    const astronaut = vector(a[0]);
    const same = euclideanDistance(astronaut, vector(b[0]));
    const different = c.map((f) => euclideanDistance(astronaut, vector(f)));
    expect(same).toBeLessThan(SAME_PERSON_DISTANCE);
    for (const d of different) {
      expect(d).toBeGreaterThan(SAME_PERSON_DISTANCE);
      expect(d).toBeGreaterThan(same + 0.2);
    }
    const score = (f: Face | undefined): number | null =>
      faceSimilarity({ model: FACE_MODEL, descriptor: astronaut }, { model: FACE_MODEL, descriptor: vector(f) });
    expect(score(b[0])).toBeGreaterThan(0.5);
    for (const f of c) expect(score(f)).toBeLessThan(0.5);

    // Every tensor of the frame and its face crops is freed (a leak here grows with every keyframe indexed).
    const { tf } = await loadDetectionEngine();
    const before = tf.memory().numTensors;
    // Fresh pixels: the same array's detections would be the ones kept from the first run (human-engine.ts).
    const othersAgain = await frame('others-again', ['-i', sample1], 'scale=640:-2');
    expect(await facesOf(othersAgain)).toHaveLength(c.length);
    expect(tf.memory().numTensors).toBe(before);
  });

  it('finds no face, and describes none, in a frame without people', async () => {
    const coffee = await frame('coffee', ['-i', await photoPath('coffee')], 'scale=640:-2');
    expect(await facesOf(coffee)).toEqual([]);
  });
});
