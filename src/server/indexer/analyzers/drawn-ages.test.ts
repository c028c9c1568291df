import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photoPath } from '../../../../test/fixtures/media';
import { INKED_POSTER, stillFrame } from '../../../../test/helpers/still-frame';
import { tempDir } from '../../../../test/helpers/temp';
import type { Label } from '../types';
import { DrawingAnalyzer } from './drawing';
import { PeopleAnalyzer } from './people';
import { PEOPLE_SOURCES, withoutAgeBands } from './people-descriptors';

const AGE_BANDS = ['child', 'young', 'adult', 'elderly'];
const people = new PeopleAnalyzer();
const drawing = new DrawingAnalyzer();
let dir = '';
let cleanup: () => Promise<void> = async () => {};

const words = (labels: Label[] | undefined, source: string): string[] =>
  (labels ?? []).filter((l) => l.source === source).map((l) => l.label);

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-drawn-ages-'));
  expect(await people.available()).toEqual({ ok: true });
  expect(await drawing.available()).toEqual({ ok: true });
});

afterAll(async () => {
  await people.close();
  await drawing.close();
  await cleanup();
});

describe('age bands on drawn frames', () => {
  it('tells the age of a photographed face and none on the same face drawn, keeping the rest', async () => {
    for (const name of ['astronaut', 'camera'] as const) {
      const photo = await stillFrame(dir, name, ['-i', await photoPath(name), '-vf', 'scale=640:-2']);
      const drawn = await stillFrame(dir, `drawn-${name}`, [
        '-i',
        await photoPath(name),
        '-vf',
        `scale=640:-2,${INKED_POSTER}`,
      ]);
      const ofPhoto = (await people.analyze(photo)).labels;
      expect(
        words(ofPhoto, PEOPLE_SOURCES.face).filter((w) => AGE_BANDS.includes(w)),
        name,
      ).toHaveLength(1);
      expect((await drawing.analyze(photo)).labels, name).toEqual([]);

      // Both analyzers ask for the drawn frame's verdict at once, as the indexer runs them.
      const [ofDrawn, drawnLabels] = await Promise.all([people.analyze(drawn), drawing.analyze(drawn)]);
      expect(words(drawnLabels.labels, 'drawing'), name).toContain('cartoon');
      expect(
        words(ofDrawn.labels, PEOPLE_SOURCES.face).filter((w) => AGE_BANDS.includes(w)),
        name,
      ).toEqual([]);
      expect(words(ofDrawn.labels, PEOPLE_SOURCES.count), name).toEqual(['one person']);
    }
  });

  it('drops only the age bands of face labels', () => {
    const face = (label: string): Label => ({ label, score: 0.9, source: PEOPLE_SOURCES.face });
    const labels = [face('child'), face('smiling'), face('elderly'), { label: 'child', score: 0.5, source: 'ocr' }];
    expect(withoutAgeBands(labels)).toEqual([face('smiling'), { label: 'child', score: 0.5, source: 'ocr' }]);
  });
});
