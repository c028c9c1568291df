import { centreInside, PERSON_MIN_SCORE, type Body, type PeopleSeen, type Seen } from './people-descriptors';

/**
 * Centernet's "person" score does not separate people from things: real people score 0.16-0.66 on the labelled
 * frames (test/search-eval/labelled-frames.ts), a 21x28 px box on a photograph of a building 0.41. So, as faces need
 * two of three signals (face-confirm.ts), a person box below PERSON_SURE counts (is indexed as "person", counted,
 * sized) only with a second signal: a confirmed face centred inside it, POSE_POINTS_MIN of movenet's sure keypoints
 * inside it, or another person in the same frame confirmed so (a frame that surely shows people makes its other unsure
 * boxes likely people: crowds, people behind others). Measured on the 42 labelled frames (`npm run bench --
 * label-precision`): every real person box at 0.3 or above keeps counting; the building's box had no face, no
 * keypoint inside and nobody else. Movenet finds one body a frame, so pose confirms one person at most: real people's
 * boxes held 6-16 sure keypoints. It is not proof alone: run on every frame for this count, movenet also put 10 on a
 * baboon and on a palace's birds (frames where no person box calls for the pose pass), 0-6 on the others.
 */
export const PERSON_SURE = 0.5;
export const POSE_POINTS_MIN = 5;

function pointsInside(body: Body, box: Seen['box']): number {
  const [x, y, w, h] = box;
  return body.points.filter(([px, py]) => px >= x && px <= x + w && py >= y && py <= y + h).length;
}

/** The person boxes at PERSON_MIN_SCORE or above that count as people (see above). */
export function confirmedPersons(seen: PeopleSeen): Seen[] {
  const candidates = seen.persons.filter((p) => p.score >= PERSON_MIN_SCORE);
  const vouched = candidates.some(
    (p) =>
      p.score >= PERSON_SURE ||
      seen.faces.some((f) => centreInside(f.box, p.box)) ||
      seen.bodies.some((b) => pointsInside(b, p.box) >= POSE_POINTS_MIN),
  );
  return vouched ? candidates : [];
}

/**
 * What human saw with only the people that count: confirmed person boxes, and bodies with POSE_POINTS_MIN sure
 * keypoints (a pose of a few points found on a flower or a wall gives no shot size). Faces are confirmed already.
 */
export function confirmPeople(seen: PeopleSeen): PeopleSeen {
  return {
    ...seen,
    persons: confirmedPersons(seen),
    bodies: seen.bodies.filter((b) => b.points.length >= POSE_POINTS_MIN),
  };
}
