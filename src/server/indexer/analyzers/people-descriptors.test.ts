import { describe, expect, it } from 'vitest';
import { describePeople, type PeopleSeen, type Seen, type SeenFace } from './people-descriptors';

const W = 640;
const H = 360;

function face(height: number, extra: Partial<SeenFace> = {}): SeenFace {
  return { box: [10, 10, height, height], score: 0.9, happy: 0, ages: [], ...extra };
}

function person(height: number, score = 0.6): Seen {
  return { box: [0, 0, height / 2, height], score };
}

function seen(parts: Partial<PeopleSeen>): PeopleSeen {
  return { persons: [], faces: [], bodies: [], gestures: [], ...parts };
}

function words(found: PeopleSeen, source: string): string[] {
  return describePeople(found, W, H)
    .filter((l) => l.source === source)
    .map((l) => l.label)
    .sort();
}

describe('people descriptors from what human saw', () => {
  it('says nothing when nobody is there, and never "no people"', () => {
    expect(describePeople(seen({ persons: [person(100, 0.2)] }), W, H)).toEqual([]);
  });

  it('counts the larger of faces and confident person boxes, weighted by the weakest one counted', () => {
    const count = (found: PeopleSeen): string[] => words(found, 'people:count');
    expect(count(seen({ faces: [face(50)] }))).toEqual(['one person']);
    // Two boxes, one face (the other person is seen from behind).
    const two = seen({ faces: [face(50)], persons: [person(200, 0.7), person(200, 0.4), person(200, 0.1)] });
    expect(count(two)).toEqual(['two people']);
    expect(describePeople(two, W, H).find((l) => l.label === 'two people')?.score).toBe(0.4);
    expect(count(seen({ faces: [face(30), face(30), face(30)] }))).toEqual(['group', 'three people']);
    expect(count(seen({ persons: Array.from({ length: 5 }, () => person(80)) }))).toEqual(['group']);
    expect(count(seen({ faces: Array.from({ length: 9 }, () => face(20)) }))).toEqual(['crowd']);
  });

  it('sizes the shot by the largest face over the short side, or by the person box without a face', () => {
    const shot = (found: PeopleSeen): string[] => words(found, 'people:shot');
    expect(shot(seen({ faces: [face(300)] }))).toEqual(['close-up']);
    expect(shot(seen({ faces: [face(40), face(140)] }))).toEqual(['medium shot']);
    expect(shot(seen({ faces: [face(40)] }))).toEqual(['wide shot']);
    expect(shot(seen({ persons: [person(350)] }))).toEqual(['medium shot']);
    expect(shot(seen({ persons: [person(150)] }))).toEqual(['wide shot']);
  });

  it("reads smiles from the happy probability and age bands from face-api's age, halving the weight near a band edge", () => {
    const found = seen({
      faces: [
        face(80, { happy: 0.8, ages: [35] }),
        face(80, { happy: 0.3, ages: [7, 9, 8, 6, 10, 9], score: 0.7 }),
        face(80, { ages: [61] }),
      ],
    });
    const labels = describePeople(found, W, H).filter((l) => l.source === 'people:face');
    expect(labels.map((l) => [l.label, l.score]).sort()).toEqual([
      ['adult', 0.9],
      ['child', 0.7],
      ['elderly', 0.45],
      ['smiling', 0.8],
    ]);
    expect(words(seen({ faces: [face(80, { happy: 0.49, ages: [] })] }), 'people:face')).toEqual([]);
  });

  it('calls a face a child only when six readings (two nets, three crops) all say so', () => {
    const child = (ages: number[]): string[] => words(seen({ faces: [face(80, { ages })] }), 'people:face');
    expect(child([7, 9, 8, 6, 10, 15])).toEqual(['child']);
    expect(child([7])).toEqual([]);
    // face-api's reading alone, or with faceres agreeing on the box as found (the animated man at 5.3 s: 6.6, 9.3).
    expect(child([6.6, 9.3])).toEqual([]);
    // As on the animated man at 4.3 s: all but one reading under 16.
    expect(child([5.5, 9.4, 11, 11, 10, 23])).toEqual([]);
  });

  it('words body gestures plainly, weighted by their body, and drops the ones nobody searches for', () => {
    const found = seen({
      bodies: [{ box: [0, 0, 100, 300], score: 0.7, points: [] }],
      gestures: [
        { gesture: 'i give up', score: 0.7 },
        { gesture: 'raise left hand', score: 0.5 },
        { gesture: 'raise right hand', score: 0.6 },
        { gesture: 'leaning left', score: 0.7 },
        { gesture: 'facing center', score: 0.7 },
      ],
    });
    const labels = describePeople(found, W, H).filter((l) => l.source === 'people:pose');
    expect(labels.map((l) => [l.label, l.score]).sort()).toEqual([
      ['hand raised', 0.6],
      ['hands up', 0.7],
      ['leaning', 0.7],
    ]);
  });
});
