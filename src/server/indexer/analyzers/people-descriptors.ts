import type { Label } from '../types';

/** [x, y, width, height] in frame pixels. */
export type Box = readonly [number, number, number, number];

/** Whether the centre of `inner` lies inside `outer` (edges included): a face in a person box. */
export function centreInside(inner: Box, outer: Box): boolean {
  const [cx, cy] = [inner[0] + inner[2] / 2, inner[1] + inner[3] / 2];
  return cx >= outer[0] && cx <= outer[0] + outer[2] && cy >= outer[1] && cy <= outer[1] + outer[3];
}

export interface Seen {
  box: Box;
  score: number;
}

/** A body pose: its box and score, and where its keypoints movenet is sure of lie. */
export interface Body extends Seen {
  points: readonly (readonly [number, number])[];
}

export interface SeenFace extends Seen {
  /** The emotion model's probability that the face is happy, 0 when it did not run. */
  happy: number;
  /**
   * The face's age in years: face-api's first (empty when the face was too small to read); where that is a child's,
   * then faceres' and both nets' on the face's box shrunk and grown (face-age.ts), which "child" needs to agree.
   */
  ages: number[];
}

/** What the human engine saw of the people in one frame. */
export interface PeopleSeen {
  /** The object detector's "person" boxes, every score. */
  persons: Seen[];
  faces: SeenFace[];
  /** Body poses (movenet), only looked for when someone is in the frame. */
  bodies: Body[];
  /**
   * Gestures as human's gesture module words them ("i give up", "raise left hand", "leaning left" ...), each with the
   * score of the body it was read from.
   */
  gestures: { gesture: string; score: number }[];
}

export const PEOPLE_SOURCES = {
  count: 'people:count',
  shot: 'people:shot',
  face: 'people:face',
  pose: 'people:pose',
} as const;

/** A "person" box below this is too often a coat on a chair to be counted (faces are already filtered at 0.5). */
export const PERSON_MIN_SCORE = 0.3;
/** Smiling when the emotion model gives "happy" at least this probability. */
const SMILE_MIN = 0.5;
/**
 * Shot size from the largest face's height over the frame's short side. Human's face boxes include hair and chin with
 * a margin: measured on the astronaut photo, a full waist-up portrait gives 0.39, head and shoulders 0.75, the face
 * alone 1.0, the whole figure at a third of the frame height 0.15.
 */
const CLOSE_UP_FACE = 0.6;
const MEDIUM_FACE = 0.25;
/** Without a face (seen from behind, too small): a person box this tall is a medium shot, shorter is wide. */
const MEDIUM_PERSON = 0.9;
/** Age bands in years: [upper bound (exclusive), label]. */
const AGE_BANDS: [number, string][] = [
  [13, 'child'],
  [25, 'young'],
  [60, 'adult'],
  [Infinity, 'elderly'],
];
/** An age this close to a band's edge could be either side: its label is kept at half weight. */
const AGE_EDGE_YEARS = 3;
/**
 * "child" needs six readings to agree, each under the band's top plus AGE_EDGE_YEARS: face-api's and faceres' (a second
 * net trained apart), each on the face's box as found, shrunk and grown. Both nets read the big-eyed grown man of a
 * computer-animated film as a child in some frames, and there the readings swing with the crop (9 to 29 years from
 * one box to the next). On 55 frames of that film 0.2 s apart face-api alone read a child on 3, with faceres agreeing
 * on 2, with every view on none; 38 adult faces in real photos (face-confirm's portraits, two framings each, and the
 * labelled frames) got a child band under no rule. Other bands keep face-api's reading alone.
 */
const CHILD_ESTIMATES = 6;

/** Human's gesture names in the words a person would search with; gestures not listed are not worth a label. */
const GESTURE_WORDS: Record<string, string> = {
  'i give up': 'hands up',
  'raise left hand': 'hand raised',
  'raise right hand': 'hand raised',
  'leaning left': 'leaning',
  'leaning right': 'leaning',
};

/** Whether a second pass for body poses is worth its cost: someone is in the frame. */
export function someoneSeen(persons: Seen[], faces: Seen[]): boolean {
  return faces.length > 0 || persons.some((p) => p.score >= PERSON_MIN_SCORE);
}

/** The people descriptors of one frame (see docs/api.md "People and drawing descriptors"), each with its weight. */
export function describePeople(seen: PeopleSeen, width: number, height: number): Label[] {
  return [...countLabels(seen), ...shotLabels(seen, Math.min(width, height)), ...faceLabels(seen), ...poseLabels(seen)];
}

function label(text: string, score: number, source: string): Label {
  return { label: text, score: Math.round(Math.min(1, Math.max(0, score)) * 1000) / 1000, source };
}

/**
 * How many people: the larger of the face count and the confident "person" box count (a face and a box are often the
 * same person; someone seen from behind has a box and no face). The weight is the weakest counted detection's score.
 */
function countLabels(seen: PeopleSeen): Label[] {
  const persons = seen.persons.filter((p) => p.score >= PERSON_MIN_SCORE);
  const counted = persons.length > seen.faces.length ? persons : seen.faces;
  const n = counted.length;
  if (n === 0) return [];
  const weight = Math.min(...counted.map((c) => c.score));
  const words =
    n === 1
      ? ['one person']
      : n === 2
        ? ['two people']
        : n === 3
          ? ['three people', 'group']
          : n <= 6
            ? ['group']
            : ['crowd'];
  return words.map((w) => label(w, weight, PEOPLE_SOURCES.count));
}

function shotLabels(seen: PeopleSeen, side: number): Label[] {
  const face = largest(seen.faces);
  if (face) {
    const ratio = face.box[3] / side;
    const shot = ratio >= CLOSE_UP_FACE ? 'close-up' : ratio >= MEDIUM_FACE ? 'medium shot' : 'wide shot';
    return [label(shot, face.score, PEOPLE_SOURCES.shot)];
  }
  const body = largest([...seen.persons.filter((p) => p.score >= PERSON_MIN_SCORE), ...seen.bodies]);
  if (!body) return [];
  return [label(body.box[3] / side >= MEDIUM_PERSON ? 'medium shot' : 'wide shot', body.score, PEOPLE_SOURCES.shot)];
}

function largest<T extends Seen>(items: T[]): T | undefined {
  let best: T | undefined;
  for (const item of items) if (!best || item.box[2] * item.box[3] > best.box[2] * best.box[3]) best = item;
  return best;
}

const AGE_WORDS = new Set(AGE_BANDS.map(([, word]) => word));

/**
 * The labels without their age bands, for a drawn or animated frame: face-api's age net reads a cartoon's big eyes as a
 * child's (it put "child" on the grown man of a computer-animated film), so ages are only told on photographed faces.
 */
export function withoutAgeBands(labels: Label[]): Label[] {
  return labels.filter((l) => !(l.source === PEOPLE_SOURCES.face && AGE_WORDS.has(l.label)));
}

/** Smiling and age band per face; one label per word, with the best weight among the faces. */
function faceLabels(seen: PeopleSeen): Label[] {
  const best = new Map<string, number>();
  const keep = (word: string, weight: number): void => {
    best.set(word, Math.max(best.get(word) ?? 0, weight));
  };
  for (const face of seen.faces) {
    if (face.happy >= SMILE_MIN) keep('smiling', face.happy);
    const age = face.ages[0];
    if (age === undefined) continue;
    const index = AGE_BANDS.findIndex(([upper]) => age < upper);
    const band = AGE_BANDS[index];
    if (!band || (index === 0 && !childAgreed(face.ages))) continue;
    const lower = AGE_BANDS[index - 1]?.[0] ?? -Infinity;
    const nearEdge = age - lower < AGE_EDGE_YEARS || band[0] - age < AGE_EDGE_YEARS;
    keep(band[1], nearEdge ? face.score / 2 : face.score);
  }
  return [...best].map(([word, weight]) => label(word, weight, PEOPLE_SOURCES.face));
}

/** Whether face-api reads a child: the one band that needs the other readings (childAgreed). */
export function readsAsChild(age: number): boolean {
  return age < AGE_BANDS[0]![0];
}

/** Whether all CHILD_ESTIMATES readings are within AGE_EDGE_YEARS of the child band. */
function childAgreed(ages: number[]): boolean {
  return ages.length >= CHILD_ESTIMATES && ages.every((a) => a < AGE_BANDS[0]![0] + AGE_EDGE_YEARS);
}

/** Gestures in plain words, each weighted by the best score of the bodies or hands it was read from. */
function poseLabels(seen: PeopleSeen): Label[] {
  const best = new Map<string, number>();
  for (const { gesture, score } of seen.gestures) {
    const word = GESTURE_WORDS[gesture];
    if (word) best.set(word, Math.max(best.get(word) ?? 0, score));
  }
  return [...best].map(([word, weight]) => label(word, weight, PEOPLE_SOURCES.pose));
}
