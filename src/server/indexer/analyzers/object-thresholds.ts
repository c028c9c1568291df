import { centreInside, type Box } from './people-descriptors';

/**
 * The score from which a COCO label of centernet (through human) is indexed, per class. Below it the label is neither
 * searchable nor shown, and gives no colour. Calibrated on the 23 labelled real photographs of the search evaluation
 * (test/search-eval/labelled-frames.ts, 'calibrate'), checked on 14 held-out frames; `npm run bench -- label-precision`
 * counts what each class still invents. Scores seen there (right / invented):
 * - person 0.16-0.66 / up to 0.41 (a small box on building.jpg): 0.3, as the people count uses, and below 0.5 a second
 *   signal (person-confirm.ts);
 * - bird 0.16-0.56 / 0.43 on a ladybird, 0.41 on a squirrel: 0.45;
 * - vase never right / 0.59 on a water drop: 0.6;
 * - sports ball 0.61 / 0.33 on sweets: 0.35;
 * - orange 0.1-0.38 / 0.1 on dandelion seeds: 0.15; dog 0.23 on the one dog, 0.22 on a painting: 0.23.
 * Every other class (stop sign on sweets 0.31, car on an aerial city 0.31, tie on a baboon 0.28, kite 0.17...) takes
 * DEFAULT_MIN: no invented label of another class scored above it on the labelled frames but a car on a building's
 * photo (0.44), which no threshold removes (real cars score 0.32-0.43, and a second detection on the mirrored frame
 * brings it back at 0.39): a closer look at a crop around it does (object-confirm.ts).
 */
const DEFAULT_MIN = 0.32;
const CLASS_MIN: Readonly<Record<string, number>> = {
  person: 0.3,
  bird: 0.45,
  vase: 0.6,
  'sports ball': 0.35,
  orange: 0.15,
  dog: 0.23,
};

export function objectMinScore(label: string): number {
  return CLASS_MIN[label] ?? DEFAULT_MIN;
}

/** A person box the detector is less sure of still counts when a confirmed face sits inside it: two signals agree. */
const PERSON_WITH_FACE_MIN = 0.1;

/**
 * Whether a detection is sure enough of its class to be indexed: its class's threshold, or for a person, a face
 * confirmed on its own (face-confirm.ts) centred inside its box. When `persons` (the frame's confirmed person boxes,
 * person-confirm.ts) is given, a person box over its threshold must also be one of them.
 */
export function passesObjectThreshold(
  object: { label: string; score: number; box?: Box },
  faces: readonly { box: Box }[] = [],
  persons?: readonly { box: Box }[],
): boolean {
  const box = object.box;
  if (object.score >= objectMinScore(object.label)) {
    if (object.label !== 'person' || !persons || !box) return true;
    if (persons.some((p) => sameBox(p.box, box))) return true;
  }
  if (object.label !== 'person' || !box || object.score < PERSON_WITH_FACE_MIN) return false;
  return faces.some((face) => centreInside(face.box, box));
}

function sameBox(a: Box, b: Box): boolean {
  return a.every((v, i) => v === b[i]);
}
