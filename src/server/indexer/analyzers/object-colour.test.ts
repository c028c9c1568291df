import { describe, expect, it } from 'vitest';
import { objectColour, objectColourLabels } from './object-colour';
import { ObjectsAnalyzer, OBJECT_SOURCE } from './objects';
import { drawFrame, photoRgb, type Rgb } from '../../../../test/helpers/test-frames';

const W = 320;
const H = 180;

/** A disc of `colour` centred at (cx, cy) on a background. */
function disc(colour: Rgb, background: Rgb, cx: number, cy: number, radius: number): Uint8Array {
  return drawFrame(W, H, (x, y) => (Math.hypot(x - cx, y - cy) <= radius ? colour : background));
}

describe('objectColour', () => {
  it('names the object, not the background in the corners of its box', () => {
    // A red apple on a white table: the box's corners are white, about 21 % of it.
    const rgb = disc([200, 25, 30], [245, 245, 245], 100, 90, 40);
    expect(objectColour(rgb, W, H, [60, 50, 80, 80])?.name).toBe('red');
  });

  it('discounts the colour that surrounds the box when the box is loose', () => {
    // A loose box (twice the disc's size) on grass: even centre-weighted, green covers 60 % of it; yet the grass all
    // around the box says green is the background.
    const rgb = disc([245, 210, 40], [50, 140, 50], 160, 90, 25);
    const loose: [number, number, number, number] = [110, 40, 100, 100];
    expect(objectColour(rgb, W, H, loose)?.name).toBe('yellow');
  });

  it('gives no colour to a thin dark object whose box is mostly the sky around it, and names a solid one', () => {
    // A gliding bird seen from afar: black wings 3 px thick across a 16 px box, the rest of the box and all around it
    // blue sky. Even centre-weighted the box is three quarters sky: "blue bird" would name the sky.
    const sky: Rgb = [70, 130, 220];
    const wings = drawFrame(W, H, (x, y) => (Math.abs(y - 90) <= 1 && Math.abs(x - 160) <= 6 ? [20, 20, 25] : sky));
    expect(objectColour(wings, W, H, [152, 82, 16, 16])).toBeNull();
    // A bird whose body fills the middle of its box is black.
    expect(objectColour(disc([20, 20, 25], sky, 160, 90, 5), W, H, [152, 82, 16, 16])?.name).toBe('black');
  });

  it('keeps a white object on a white ground white, and gives nothing for a box too small', () => {
    const rgb = disc([250, 250, 250], [240, 240, 240], 160, 90, 40);
    expect(objectColour(rgb, W, H, [120, 50, 80, 80])?.name).toBe('white');
    expect(objectColour(rgb, W, H, [150, 80, 8, 8])).toBeNull();
  });

  it('labels each object "<colour> <class>" weighted by its detection score, and never colours a person', () => {
    const rgb = disc([30, 60, 200], [250, 250, 250], 100, 90, 40);
    const labels = objectColourLabels(rgb, W, H, [
      { label: 'car', score: 0.8, box: [60, 50, 80, 80] },
      { label: 'car', score: 0.2, box: [60, 50, 80, 80] },
      { label: 'person', score: 0.9, box: [60, 50, 80, 80] },
    ]);
    expect(labels.map((l) => [l.label, l.source])).toEqual([
      ['blue car', 'colour:object'],
      ['blue car', 'colour:object'],
    ]);
    expect(labels[0]!.score).toBeGreaterThan(labels[1]!.score);
    expect(labels[0]!.score).toBeLessThanOrEqual(1);
  });
});

describe('ObjectsAnalyzer with colours (real detector)', () => {
  it('finds the red motorcycle of the photo and keeps its plain object labels', async () => {
    const analyzer = new ObjectsAnalyzer();
    try {
      const state = await analyzer.available();
      if (!state.ok) throw new Error(state.reason);
      const rgb = await photoRgb('motorcycle');
      const found = await analyzer.analyze({
        index: 0,
        start: 0,
        end: 3,
        keyframePath: 'unused.jpg',
        width: 640,
        height: 360,
        rgb: () => Promise.resolve(rgb),
      });
      const labels = found.labels ?? [];
      expect(labels.filter((l) => l.source === OBJECT_SOURCE).map((l) => l.label)).toContain('motorcycle');
      const coloured = labels.filter((l) => l.source === 'colour:object');
      expect(coloured.map((l) => l.label)).toContain('red motorcycle');
      // Every coloured label is one detected object's class with a colour word before it.
      const classes = new Set(labels.filter((l) => l.source === OBJECT_SOURCE).map((l) => l.label));
      for (const l of coloured) expect(classes.has(l.label.split(' ').slice(1).join(' '))).toBe(true);
    } finally {
      await analyzer.close();
    }
  });
});
