import { describe, expect, it } from 'vitest';
import { readPose } from './human-passes';
import { passesObjectThreshold } from './object-thresholds';
import type { Body, PeopleSeen, Seen } from './people-descriptors';
import { confirmedPersons, confirmPeople, PERSON_SURE, POSE_POINTS_MIN } from './person-confirm';

function seen(parts: Partial<PeopleSeen>): PeopleSeen {
  return { persons: [], faces: [], bodies: [], gestures: [], ...parts };
}

/** A body with `n` sure keypoints down the middle of the box [x, y, w, h]. */
function body(n: number, [x, y, w, h]: Seen['box']): Body {
  const points = Array.from({ length: n }, (_, i): [number, number] => [x + w / 2, y + ((i + 0.5) * h) / n]);
  return { box: [x, y, w, h], score: 0.6, points };
}

const unsure: Seen = { box: [332, 287, 21, 28], score: 0.41 };
const other: Seen = { box: [100, 100, 30, 60], score: 0.35 };

describe('person confirmation', () => {
  it('drops an unsure person box alone in its frame, as on a photograph of a building', () => {
    expect(confirmedPersons(seen({ persons: [unsure] }))).toEqual([]);
    // A few keypoints elsewhere (a pose read into a wall) vouch for nothing.
    expect(confirmedPersons(seen({ persons: [unsure], bodies: [body(3, [443, 276, 27, 53])] }))).toEqual([]);
  });

  it('keeps a sure box, and with it the unsure ones of the same frame', () => {
    const sure: Seen = { box: [10, 10, 50, 120], score: PERSON_SURE };
    expect(confirmedPersons(seen({ persons: [sure, unsure] }))).toEqual([sure, unsure]);
  });

  it('keeps an unsure box with a confirmed face centred inside or enough keypoints inside', () => {
    const face = { box: [335, 290, 10, 10] as const, score: 0.9, happy: 0, ages: [] };
    expect(confirmedPersons(seen({ persons: [unsure, other], faces: [face] }))).toEqual([unsure, other]);
    const posed = body(POSE_POINTS_MIN, unsure.box);
    expect(confirmedPersons(seen({ persons: [unsure], bodies: [posed] }))).toEqual([unsure]);
    const fewer = body(POSE_POINTS_MIN - 1, unsure.box);
    expect(confirmedPersons(seen({ persons: [unsure], bodies: [fewer] }))).toEqual([]);
  });

  it('never counts a box under the people threshold, and gives no shot size from a pose of a few points', () => {
    const low: Seen = { box: [0, 0, 40, 90], score: 0.2 };
    const sure: Seen = { box: [10, 10, 50, 120], score: 0.6 };
    const people = confirmPeople(seen({ persons: [sure, low], bodies: [body(2, [0, 0, 50, 50])] }));
    expect(people.persons).toEqual([sure]);
    expect(people.bodies).toEqual([]);
  });

  it('indexes "person" only for a confirmed box', () => {
    const object = { label: 'person', score: unsure.score, box: unsure.box };
    expect(passesObjectThreshold(object, [], [])).toBe(false);
    expect(passesObjectThreshold(object, [], [{ box: [...unsure.box] }])).toBe(true);
    // Other classes are not asked for a second signal.
    expect(passesObjectThreshold({ ...object, label: 'car', score: 0.44 }, [], [])).toBe(true);
  });

  it("reads movenet's sure keypoints from a pose pass, and none from a body without them", () => {
    const pose = readPose({
      body: [
        {
          box: [0, 0, 10, 20],
          score: 0.5,
          keypoints: [
            { part: 'nose', position: [5, 2, 0], score: 0.8 },
            { part: 'leftKnee', position: [4, 15], score: 0.1 },
          ],
        },
        { box: [0, 0, 10, 20], score: 0.4 },
      ],
      gesture: [],
    });
    expect(pose.bodies.map((b) => b.points)).toEqual([[[5, 2]], []]);
  });
});
