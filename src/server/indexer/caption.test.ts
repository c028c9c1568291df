import { describe, expect, it } from 'vitest';
import { buildCaption, countPhrase } from './caption';
import type { Label } from './types';

const det = (label: string, score = 0.8): Label => ({ label, score, source: 'objects:centernet' });

describe('buildCaption', () => {
  it('names people, objects, text and speech in one sentence', () => {
    expect(
      buildCaption({
        detections: [det('person'), det('car', 0.6)],
        faces: [],
        ocrText: 'HARBOUR LIGHTS',
        transcript: 'we filmed the sunset',
      }),
    ).toBe('A person and a car; on-screen text "HARBOUR LIGHTS"; speech: "we filmed the sunset".');
  });

  it('counts and orders things deterministically, leaving unsure labels out', () => {
    const caption = buildCaption({
      detections: [det('boat'), det('person'), det('boat'), det('person'), det('person'), det('dog', 0.1)],
      faces: [],
      ocrText: '',
      transcript: '',
    });
    expect(caption).toBe('Three people and two boats.');
  });

  it('mentions faces when no person was labelled', () => {
    expect(
      buildCaption({
        detections: [],
        faces: [{ descriptor: [1], model: 'test', box: [0, 0, 1, 1], score: 0.9 }],
        ocrText: '',
        transcript: '',
      }),
    ).toBe('A face.');
  });

  it('says so when nothing was found, and shortens long speech', () => {
    expect(buildCaption({ detections: [], faces: [], ocrText: '', transcript: '' })).toBe(
      'No people, objects, text or speech recognised.',
    );
    const long = buildCaption({ detections: [], faces: [], ocrText: '', transcript: 'word '.repeat(100) });
    expect(long.length).toBeLessThan(170);
    expect(long).toMatch(/…"\.$/);
  });

  it('pluralises COCO labels', () => {
    expect(countPhrase('bus', 2)).toBe('two buses');
    expect(countPhrase('wine glass', 3)).toBe('three wine glasses');
    expect(countPhrase('knife', 2)).toBe('two knives');
    expect(countPhrase('sheep', 12)).toBe('12 sheep');
    expect(countPhrase('apple', 1)).toBe('an apple');
    expect(countPhrase('tv', 1)).toBe('a TV');
  });
});
