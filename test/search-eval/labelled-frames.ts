/**
 * Real frames labelled by what a person sees in them, for counting the labels the indexer invents (false positives
 * per class) and the ones it finds (bench/label-precision.bench.ts). Thresholds are calibrated on the 'calibrate' half
 * (the evaluation's own slideshows) and checked on the 'held-out' half (other photographs of the same Debian packages
 * and frames of the street video and the animated film), which no threshold was tuned on.
 *
 * `objects` lists every COCO class (centernet's 80) that is really in view; any other class is invented. `yes | no |
 * either` says whether a word is right: "either" where a person could say both (a 3D render is neither photograph
 * nor drawing; faces filmed from above at 30 px), and then nothing is counted for it.
 */
type Truth = 'yes' | 'no' | 'either';

interface FrameTruth {
  objects: readonly string[];
  /** Someone (a human) is in view. */
  people: Truth;
  /** A human face is in view: the only thing "face", "smiling" and age bands may describe. */
  face: Truth;
  /** A child is in view: the only frames "child" may describe (on any other face it is an invented age). */
  child: Truth;
  drawn: Truth;
  /** Legible text is in view: on any other frame every word read is invented. */
  text: Truth;
}

export type LabelledFrame = FrameTruth & { split: 'calibrate' | 'held-out' } & (
    { pkg: 'opencv' | 'mate'; photo: string } | { clip: 'street' | 'cartoon'; at: number }
  );

const NOBODY = { people: 'no', face: 'no', child: 'no', drawn: 'no', text: 'no' } as const;

function photo(
  pkg: 'opencv' | 'mate',
  file: string,
  split: LabelledFrame['split'],
  truth: Partial<FrameTruth>,
): LabelledFrame {
  return { pkg, photo: file, split, objects: [], ...NOBODY, ...truth };
}

const calibrate = (pkg: 'opencv' | 'mate', file: string, truth: Partial<FrameTruth> = {}): LabelledFrame =>
  photo(pkg, file, 'calibrate', truth);
const heldOut = (pkg: 'opencv' | 'mate', file: string, truth: Partial<FrameTruth> = {}): LabelledFrame =>
  photo(pkg, file, 'held-out', truth);

const TWO_MEN = { objects: ['person', 'sports ball', 'chair'], people: 'yes', face: 'yes' } as const;

export const LABELLED_FRAMES: LabelledFrame[] = [
  // The evaluation's slideshows (test/fixtures/eval-media.ts).
  calibrate('opencv', 'baboon.jpg'),
  calibrate('opencv', 'fruits.jpg', { objects: ['orange'] }),
  calibrate('opencv', 'apple.jpg', { objects: ['apple'] }),
  calibrate('opencv', 'orange.jpg', { objects: ['orange'] }),
  calibrate('opencv', 'building.jpg', { objects: ['potted plant'] }),
  calibrate('opencv', 'starry_night.jpg', { drawn: 'yes' }),
  calibrate('opencv', 'smarties.png'),
  calibrate('opencv', 'messi5.jpg', { objects: ['person', 'sports ball'], people: 'yes', face: 'yes', text: 'yes' }),
  calibrate('opencv', 'basketball1.png', TWO_MEN),
  calibrate('opencv', 'butterfly.jpg'),
  calibrate('opencv', 'squirrel_cls.jpg'),
  // Birds fly over the palace; its tower may hold a clock.
  calibrate('opencv', 'home.jpg', { objects: ['bird', 'clock'] }),
  calibrate('opencv', 'aero1.jpg'),
  calibrate('opencv', 'HappyFish.jpg', { drawn: 'yes' }),
  calibrate('opencv', 'chicky_512.png', { objects: ['dog'] }),
  calibrate('opencv', 'licenseplate_motion.jpg', { objects: ['car'], text: 'either' }),
  calibrate('mate', 'Aqua.jpg'),
  calibrate('mate', 'FreshFlower.jpg'),
  calibrate('mate', 'GreenMeadow.jpg'),
  calibrate('mate', 'LadyBird.jpg'),
  calibrate('mate', 'Storm.jpg'),
  calibrate('mate', 'YellowFlower.jpg'),
  calibrate('mate', 'Wood.jpg'),
  // Never tuned on.
  heldOut('opencv', 'basketball2.png', TWO_MEN),
  heldOut('opencv', 'aero3.jpg'),
  heldOut('opencv', 'stuff.jpg'),
  heldOut('opencv', 'Blender_Suzanne1.jpg', { drawn: 'either' }),
  heldOut('mate', 'RainDrops.jpg'),
  heldOut('mate', 'TwoWings.jpg'),
  heldOut('mate', 'Blinds.jpg'),
  heldOut('mate', 'Dune.jpg'),
  heldOut('mate', 'Garden.jpg', { objects: ['potted plant'] }),
  ...[4, 14, 24].map((at): LabelledFrame => ({
    clip: 'street',
    at,
    split: 'held-out',
    // People walk past a parked white van and a blue car.
    objects: ['person', 'handbag', 'backpack', 'suitcase', 'umbrella', 'car', 'truck'],
    people: 'yes',
    face: 'either',
    child: 'either',
    drawn: 'no',
    text: 'either',
  })),
  // The animated film: the woman with a wine glass at a table (2, 3.5 s), the man across it (4.3-6 s), then his face
  // close (9, 11 s). Both are grown-ups: face-api's age net reads a child at 3.5, 4.3 and 5.3 s (faceres agrees at 4.3
  // and 5.3 s), faceres alone at 6 s.
  ...[2, 3.5, 4.3, 5.3, 6, 9, 11].map((at): LabelledFrame => ({
    clip: 'cartoon',
    at,
    split: 'held-out',
    objects: ['person', 'wine glass', 'cup', 'dining table', 'chair', 'tie'],
    people: 'yes',
    face: 'yes',
    child: 'no',
    drawn: 'either',
    text: 'no',
  })),
];
