import {
  CAMERA_MOVES,
  NATURE_STILLS,
  OPENCV_STILLS,
  STILL_SECONDS,
  STREET_SECONDS,
  type EvalClip,
} from '../fixtures/eval-media';
import { DRAWN_TEXT } from '../fixtures/media';

/** The media the evaluation indexes, by key. */
export type EvalMedia = 'drawnText' | 'speech' | 'photos' | 'phone' | 'titled' | EvalClip;

/** What a case exercises: the kind of descriptor a person's answer rests on. */
export const EVAL_KINDS = [
  'ocr',
  'speech',
  'objects',
  'colour',
  'people',
  'motion',
  'drawing',
  'synonym',
  'metadata',
  'phrase',
] as const;
export type EvalKind = (typeof EVAL_KINDS)[number];

interface Answer {
  media: EvalMedia;
  start: number;
  end: number;
}

export interface EvalCase {
  query: string;
  /**
   * The right answer: a segment of this video overlapping [start, end] seconds, or of one of the `or` ranges when the
   * answer shows in more than one shot.
   */
  expect: Answer & { or?: Answer[] };
  kind: EvalKind;
}

/** The time range of one photo of a slideshow. */
function still(media: 'stills' | 'nature', file: string): Answer {
  const order: readonly string[] = media === 'stills' ? OPENCV_STILLS : NATURE_STILLS;
  const i = order.indexOf(file);
  if (i < 0) throw new Error(`${file} is not in the ${media} slideshow`);
  return { media, start: i * STILL_SECONDS, end: (i + 1) * STILL_SECONDS };
}

/** Everywhere else a person is in view (for "person", "someone"): the footballer, the two men, the street, the film. */
const PEOPLE: Answer[] = [
  still('stills', 'messi5.jpg'),
  still('stills', 'basketball1.png'),
  { media: 'street', start: 0, end: STREET_SECONDS },
  { media: 'cartoon', start: 0, end: 11.3 },
];

/**
 * Queries a user would type, with the answer a person looking at the footage would give. Cases the engine is known
 * to miss stay in: the figures must show misses too. The photographs and video are real (Debian's python3-skimage,
 * opencv-doc and mate-backgrounds: see test/fixtures); what each case expects is what a person sees in it, not what
 * any detector is known to say.
 */
export const EVAL_CASES: EvalCase[] = [
  // Generated clips: drawn titles, synthetic speech, camera metadata.
  { query: DRAWN_TEXT.toLowerCase(), expect: { media: 'drawnText', start: 0, end: 4 }, kind: 'ocr' },
  { query: 'lights', expect: { media: 'drawnText', start: 0, end: 4 }, kind: 'ocr' },
  { query: 'sunset', expect: { media: 'speech', start: 0, end: 4.2 }, kind: 'speech' },
  { query: '"two small boats"', expect: { media: 'speech', start: 0, end: 4.2 }, kind: 'phrase' },
  { query: 'we filmed the harbour', expect: { media: 'speech', start: 0, end: 4.2 }, kind: 'speech' },
  { query: 'iphone', expect: { media: 'phone', start: 0, end: 3 }, kind: 'metadata' },
  { query: 'chapter two', expect: { media: 'titled', start: 8, end: 20 }, kind: 'ocr' },
  { query: 'sunset over the bay', expect: { media: 'titled', start: 20, end: 27 }, kind: 'ocr' },
  { query: 'interview', expect: { media: 'titled', start: 27, end: 42 }, kind: 'ocr' },
  { query: 'night market', expect: { media: 'titled', start: 42, end: 52 }, kind: 'ocr' },
  { query: 'the end', expect: { media: 'titled', start: 52, end: 60 }, kind: 'ocr' },
  // Text in a real photograph, not drawn on it: the sponsor's name on the footballer's shirt.
  { query: 'unicef', expect: still('stills', 'messi5.jpg'), kind: 'ocr' },

  // skimage's photographs: an astronaut, a motorcycle, a cup of coffee.
  { query: 'motorcycle', expect: { media: 'photos', start: 3, end: 6 }, kind: 'objects' },
  { query: 'motorbike', expect: { media: 'photos', start: 3, end: 6 }, kind: 'synonym' },
  { query: 'person', expect: { media: 'photos', start: 0, end: 3, or: PEOPLE }, kind: 'objects' },
  { query: 'someone', expect: { media: 'photos', start: 0, end: 3, or: PEOPLE }, kind: 'synonym' },
  { query: 'cup', expect: { media: 'photos', start: 6, end: 9 }, kind: 'objects' },
  { query: 'coffee', expect: { media: 'photos', start: 6, end: 9 }, kind: 'synonym' },
  { query: 'astronaut', expect: { media: 'photos', start: 0, end: 3 }, kind: 'synonym' },

  // OpenCV's sample photographs.
  { query: 'monkey', expect: still('stills', 'baboon.jpg'), kind: 'objects' },
  { query: 'lemon', expect: still('stills', 'fruits.jpg'), kind: 'objects' },
  { query: 'citrus fruit', expect: still('stills', 'fruits.jpg'), kind: 'synonym' },
  { query: 'a shot of a red apple', expect: still('stills', 'apple.jpg'), kind: 'colour' },
  { query: 'office building', expect: still('stills', 'building.jpg'), kind: 'objects' },
  { query: 'a painting of a night sky', expect: still('stills', 'starry_night.jpg'), kind: 'drawing' },
  { query: 'colorful candy', expect: still('stills', 'smarties.png'), kind: 'colour' },
  { query: 'soccer player kicking a ball', expect: still('stills', 'messi5.jpg'), kind: 'objects' },
  { query: 'black and white photo of two people', expect: still('stills', 'basketball1.png'), kind: 'people' },
  { query: 'butterfly', expect: still('stills', 'butterfly.jpg'), kind: 'objects' },
  { query: 'animal in a tree', expect: still('stills', 'squirrel_cls.jpg'), kind: 'synonym' },
  { query: 'palace under a blue sky', expect: still('stills', 'home.jpg'), kind: 'colour' },
  { query: 'aerial view of a city', expect: still('stills', 'aero1.jpg'), kind: 'objects' },
  { query: 'cartoon fish', expect: still('stills', 'HappyFish.jpg'), kind: 'drawing' },
  { query: 'puppy', expect: still('stills', 'chicky_512.png'), kind: 'synonym' },
  // The car's rear in close-up; the street video's parked vans count too.
  {
    query: 'vehicle',
    expect: { ...still('stills', 'licenseplate_motion.jpg'), or: [{ media: 'street', start: 0, end: STREET_SECONDS }] },
    kind: 'synonym',
  },

  // MATE's nature photographs.
  { query: 'water droplet', expect: still('nature', 'Aqua.jpg'), kind: 'objects' },
  { query: 'orange flower', expect: still('nature', 'FreshFlower.jpg'), kind: 'colour' },
  { query: 'green grass', expect: still('nature', 'GreenMeadow.jpg'), kind: 'colour' },
  { query: 'ladybug', expect: still('nature', 'LadyBird.jpg'), kind: 'objects' },
  { query: 'dark storm clouds', expect: still('nature', 'Storm.jpg'), kind: 'colour' },
  { query: 'show me a yellow flower', expect: still('nature', 'YellowFlower.jpg'), kind: 'colour' },

  // Camera moves over real photographs.
  {
    query: 'clip where the camera pans',
    expect: { media: 'camera', start: CAMERA_MOVES.pan[0], end: CAMERA_MOVES.pan[1] },
    kind: 'motion',
  },
  {
    query: 'zoom in',
    expect: { media: 'camera', start: CAMERA_MOVES.zoom[0], end: CAMERA_MOVES.zoom[1] },
    kind: 'motion',
  },

  // OpenCV's street video (people walking past a building, a fixed camera) and an animated film's clip.
  { query: 'footage of pedestrians', expect: { media: 'street', start: 0, end: STREET_SECONDS }, kind: 'synonym' },
  { query: 'group of people walking', expect: { media: 'street', start: 0, end: STREET_SECONDS }, kind: 'people' },
  { query: 'static shot', expect: { media: 'street', start: 0, end: STREET_SECONDS }, kind: 'motion' },
  { query: 'cartoon', expect: { media: 'cartoon', start: 0, end: 11.3 }, kind: 'drawing' },
  // Its shots: the woman with a glass (0-3.8 s), the man across the table, her again (5.9-7.8 s), his face close.
  { query: 'close-up of a face', expect: { media: 'cartoon', start: 7.9, end: 11.3 }, kind: 'people' },
  {
    query: 'woman holding a wine glass',
    expect: { media: 'cartoon', start: 0, end: 3.8, or: [{ media: 'cartoon', start: 5.9, end: 7.8 }] },
    kind: 'objects',
  },
];

/**
 * Queries whose answer is nowhere in the evaluation's footage: at the medium filtering level each should return
 * nothing (a hit is an invented label, a misread word or a leak from another kind of evidence).
 */
export const ABSENT_CASES: { query: string; kind: EvalKind }[] = [
  { query: 'giraffe', kind: 'objects' },
  { query: 'airplane', kind: 'objects' },
  { query: 'horse', kind: 'objects' },
  { query: 'fire hydrant', kind: 'objects' },
  { query: 'stop sign', kind: 'objects' },
  { query: 'purple car', kind: 'colour' },
  { query: 'yellow kite', kind: 'colour' },
  { query: 'pink umbrella', kind: 'colour' },
  { query: 'elderly man', kind: 'people' },
  { query: 'child', kind: 'people' },
  { query: 'baby', kind: 'people' },
  { query: 'exit sign', kind: 'ocr' },
  { query: 'welcome to paris', kind: 'ocr' },
  { query: 'thunderstorm warning', kind: 'speech' },
  { query: 'pencil sketch', kind: 'drawing' },
];
