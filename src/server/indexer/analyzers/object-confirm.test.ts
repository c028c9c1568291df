import { describe, expect, it } from 'vitest';
import { frameRgb } from '../../../../test/search-eval/label-frames';
import { LABELLED_FRAMES, type LabelledFrame } from '../../../../test/search-eval/labelled-frames';
import { KEYFRAME_WIDTH } from '../scene-cuts';
import { detectRgb, loadDetectionEngine } from './human-engine';
import {
  cropAround,
  lookCloser,
  MAX_LOOKS,
  needsCloserLook,
  OBJECT_SURE,
  seenAgain,
  type Detected,
} from './object-confirm';
import { passesObjectThreshold } from './object-thresholds';

const W = KEYFRAME_WIDTH;
const H = (KEYFRAME_WIDTH * 9) / 16;
const buildingCar: Detected = { label: 'car', score: 0.44, box: [119, 296, 52, 18] };

/** The classes the objects analyzer would index on a labelled frame (before colours and people confirmation). */
async function indexedClasses(frame: LabelledFrame): Promise<string[]> {
  const engine = await loadDetectionEngine();
  const found = await detectRgb(engine, await frameRgb(frame), W, H);
  return found.objects.filter((o) => o.label !== 'person' && passesObjectThreshold(o)).map((o) => o.label);
}

function labelled(match: (f: LabelledFrame) => boolean): LabelledFrame {
  const frames = LABELLED_FRAMES.filter(match);
  expect(frames).toHaveLength(1);
  return frames[0]!;
}

describe('a closer look at unsure small objects', () => {
  it('looks again only at small non-person boxes over their threshold but under sure', () => {
    expect(needsCloserLook(buildingCar, W)).toBe(true);
    expect(needsCloserLook({ ...buildingCar, score: OBJECT_SURE }, W)).toBe(false);
    expect(needsCloserLook({ ...buildingCar, score: 0.2 }, W)).toBe(false);
    expect(needsCloserLook({ ...buildingCar, label: 'person' }, W)).toBe(false);
    expect(needsCloserLook({ ...buildingCar, box: [87, 16, 454, 337] }, W)).toBe(false);
  });

  it('crops a square of four times the box around it, inside the frame', () => {
    expect(cropAround(buildingCar.box, W, H)).toEqual([41, 152, 208, 208]);
    const [x, y, side] = cropAround([620, 350, 20, 10], W, H);
    expect([x + side, y + side]).toEqual([W, H]);
  });

  it('confirms only the same class in the same place, at least as sure', () => {
    const crop = cropAround(buildingCar.box, W, H);
    const at = (label: string, score: number, dx = 0): Detected => ({
      label,
      score,
      box: [buildingCar.box[0] - crop[0] + dx, buildingCar.box[1] - crop[1], 52, 18],
    });
    expect(seenAgain(buildingCar, crop, [at('car', 0.5)])).toBe(true);
    expect(seenAgain(buildingCar, crop, [at('car', 0.35)])).toBe(false);
    expect(seenAgain(buildingCar, crop, [at('truck', 0.6)])).toBe(false);
    expect(seenAgain(buildingCar, crop, [at('car', 0.6, 60)])).toBe(false);
  });

  it('shares a crop between objects close together, and keeps a busy frame to MAX_LOOKS crops', async () => {
    // Cars 20 px wide along a street: neighbours 30 px apart sit well inside one another's crop (80 px at least 160).
    const cars: Detected[] = Array.from({ length: 12 }, (_, i) => ({
      label: 'car',
      score: 0.4,
      box: [10 + 50 * i, 200, 20, 12],
    }));
    const crops: (readonly number[])[] = [];
    // The detector sees every car again, surer, wherever it is asked.
    const { objects, looks } = await lookCloser(cars, W, H, (crop) => {
      crops.push(crop);
      return Promise.resolve(
        cars.map((c) => ({
          ...c,
          score: 0.6,
          box: [c.box[0] - crop[0], c.box[1] - crop[1], c.box[2], c.box[3]] as const,
        })),
      );
    });
    expect(looks).toBe(crops.length);
    expect(looks).toBeLessThanOrEqual(MAX_LOOKS);
    expect(looks).toBeLessThan(cars.length / 2);
    expect(objects).toHaveLength(cars.length);
    // Nothing seen again: the cars looked at go; those past the last look stay as the whole frame saw them.
    const none = await lookCloser(cars, W, H, () => Promise.resolve([]));
    expect(none.looks).toBe(MAX_LOOKS);
    expect(none.objects.length).toBeGreaterThan(0);
    expect(none.objects.length).toBeLessThan(cars.length);
  });

  it('drops the car centernet sees on a photograph of a building (0.44), keeps the street clip car and truck', async () => {
    const building = labelled((f) => 'photo' in f && f.photo === 'building.jpg');
    expect(await indexedClasses(building)).not.toContain('car');
    const street = labelled((f) => 'clip' in f && f.clip === 'street' && f.at === 14);
    expect(await indexedClasses(street)).toEqual(expect.arrayContaining(['car', 'truck']));
  }, 120_000);
});
