import { describe, expect, it } from 'vitest';
import {
  descriptorFromBlob,
  descriptorToBlob,
  distanceToScore,
  euclideanDistance,
  FACE_API_MODEL,
  faceSimilarity,
  HUMAN_FACERES_MODEL,
  samePerson,
  SAME_PERSON_DISTANCE,
} from './face-match';

/** A 128-number descriptor whose Euclidean distance to `base` is exactly `distance` (moved along one axis). */
function at(base: Float32Array, distance: number): Float32Array {
  const d = Float32Array.from(base);
  d[7] = (d[7] ?? 0) + distance;
  return d;
}

const base = Float32Array.from({ length: 128 }, (_, i) => Math.sin(i) / 10);

describe('face-api distance to score', () => {
  it('scores the same-person threshold 0.5, nearer faces higher, and stays in [0, 1]', () => {
    expect(distanceToScore(SAME_PERSON_DISTANCE)).toBeCloseTo(0.5, 9);
    expect(distanceToScore(0.4)).toBeGreaterThan(0.92);
    expect(distanceToScore(0.8)).toBeLessThan(0.08);
    const scores = [0, 0.2, 0.4, 0.55, 0.6, 0.65, 0.8, 1.2, 2].map(distanceToScore);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const s of scores) expect(s >= 0 && s <= 1).toBe(true);
  });

  it('compares face-api descriptors by Euclidean distance', () => {
    expect(euclideanDistance(base, at(base, 0.3))).toBeCloseTo(0.3, 5);
    const near = faceSimilarity(
      { model: FACE_API_MODEL, descriptor: base },
      { model: FACE_API_MODEL, descriptor: at(base, 0.3) },
    );
    const far = faceSimilarity(
      { model: FACE_API_MODEL, descriptor: base },
      { model: FACE_API_MODEL, descriptor: at(base, 0.9) },
    );
    expect(near).toBeGreaterThan(0.9);
    expect(far).toBeLessThan(0.1);
    expect(
      samePerson({ model: FACE_API_MODEL, descriptor: base }, { model: FACE_API_MODEL, descriptor: at(base, 0.55) }),
    ).toBe(true);
    expect(
      samePerson({ model: FACE_API_MODEL, descriptor: base }, { model: FACE_API_MODEL, descriptor: at(base, 0.65) }),
    ).toBe(false);
  });
});

describe('which faces may be compared', () => {
  const faceres = Float32Array.from({ length: 1024 }, (_, i) => Math.cos(i));

  it('never compares descriptors of different models, even of one length', () => {
    expect(
      faceSimilarity({ model: FACE_API_MODEL, descriptor: base }, { model: HUMAN_FACERES_MODEL, descriptor: faceres }),
    ).toBeNull();
    expect(
      faceSimilarity({ model: FACE_API_MODEL, descriptor: base }, { model: 'other:128', descriptor: base }),
    ).toBeNull();
    expect(
      samePerson({ model: FACE_API_MODEL, descriptor: base }, { model: HUMAN_FACERES_MODEL, descriptor: faceres }),
    ).toBe(false);
  });

  it("refuses a descriptor whose length is not its model's", () => {
    const short = base.subarray(0, 64);
    expect(
      faceSimilarity({ model: FACE_API_MODEL, descriptor: short }, { model: FACE_API_MODEL, descriptor: short }),
    ).toBeNull();
    expect(
      faceSimilarity(
        { model: HUMAN_FACERES_MODEL, descriptor: base },
        { model: HUMAN_FACERES_MODEL, descriptor: base },
      ),
    ).toBeNull();
  });

  it('keeps comparing legacy faceres embeddings among themselves by cosine', () => {
    expect(
      faceSimilarity(
        { model: HUMAN_FACERES_MODEL, descriptor: faceres },
        { model: HUMAN_FACERES_MODEL, descriptor: faceres },
      ),
    ).toBeCloseTo(1, 6);
    const opposite = faceres.map((x) => -x);
    expect(
      faceSimilarity(
        { model: HUMAN_FACERES_MODEL, descriptor: faceres },
        { model: HUMAN_FACERES_MODEL, descriptor: opposite },
      ),
    ).toBe(0);
    expect(
      samePerson(
        { model: HUMAN_FACERES_MODEL, descriptor: faceres },
        { model: HUMAN_FACERES_MODEL, descriptor: faceres },
      ),
    ).toBe(true);
  });

  it('stores descriptors as packed float32 and reads them back from an unaligned buffer', () => {
    const blob = descriptorToBlob(Array.from(base));
    expect(blob.byteLength).toBe(128 * 4);
    const unaligned = Buffer.concat([Buffer.from([1]), blob]).subarray(1);
    expect(Array.from(descriptorFromBlob(unaligned))).toEqual(Array.from(base));
  });
});
