import { ffmpegPath } from '../src/common/media/tools';
import { pixelVotes } from '../src/server/indexer/analyzers/face-confirm';
import { describeFaces } from '../src/server/indexer/analyzers/face-descriptors';
import { landmarkFaults } from '../src/server/indexer/analyzers/face-landmarks';
import { detectFaces, loadDetectionEngine } from '../src/server/indexer/analyzers/human-engine';
import { runTool } from '../src/server/indexer/process';
import { frameName, frameRgb } from '../test/search-eval/label-frames';
import { LABELLED_FRAMES } from '../test/search-eval/labelled-frames';
import { FACE_PHOTOS } from './face-photos';
import type { Benchmark } from './harness';

const W = 640;
const H = 360;
const FIT = `scale=${W}:${H}:force_original_aspect_ratio=decrease,pad=${W}:${H}:(ow-iw)/2:(oh-ih)/2,setsar=1`;
/** Each photo four ways, so the nets see different pixels of the same scene; the first is the labelled frames' fit. */
const RENDITIONS: Record<string, string> = {
  'as the evaluation clips': `scale=1280:720:force_original_aspect_ratio=decrease,pad=1280:720:(ow-iw)/2:(oh-ih)/2,setsar=1,scale=${W}:${H}`,
  fitted: FIT,
  mirrored: `hflip,${FIT}`,
  zoomed: `crop=iw*0.7:ih*0.7,${FIT}`,
};

/** One detected face: whether a person sees a face there, its pixel votes, its landmark vote, whether it smiles. */
interface Found {
  real: boolean;
  votes: 0 | 1 | 2;
  landmarks: boolean;
  smiling: boolean;
  where: string;
}

const RULES: [string, (f: Found) => boolean][] = [
  ['detector alone', () => true],
  ['skin or person box (before)', (f) => f.votes > 0],
  ['landmarks alone', (f) => f.landmarks],
  ['landmarks and (skin or person box)', (f) => f.landmarks && f.votes > 0],
  ['two of three (now)', (f) => f.votes + (f.landmarks ? 1 : 0) >= 2],
];

async function rgbOf(path: string, vf: string): Promise<Uint8Array> {
  const { stdout } = await runTool(ffmpegPath(), [
    ...['-v', 'error', '-i', path, '-vf', vf, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
  ]);
  return new Uint8Array(stdout.buffer, stdout.byteOffset, stdout.length);
}

interface Timing {
  detectMs: number;
  describeMs: number;
  checkMs: number;
  frames: number;
}

/** Every face the detector finds in one frame, with its votes; adds to `timing`. */
async function facesIn(rgb: Uint8Array, real: boolean, where: string, timing: Timing): Promise<Found[]> {
  const engine = await loadDetectionEngine();
  const tensor = engine.tf.tensor3d(rgb, [H, W, 3], 'int32');
  try {
    let t = performance.now();
    const { result, faces, persons } = await detectFaces(engine, tensor);
    timing.detectMs += performance.now() - t;
    t = performance.now();
    const described = await describeFaces(engine.faces, tensor, faces);
    timing.describeMs += performance.now() - t;
    timing.frames++;
    return described.map((face) => {
      t = performance.now();
      const landmarks = landmarkFaults(face.landmarks, face.box).length === 0;
      timing.checkMs += performance.now() - t;
      const happy = result.face[face.key]?.emotion?.find((e) => e.emotion === 'happy')?.score ?? 0;
      return { real, votes: pixelVotes(face, persons, rgb, W, H), landmarks, smiling: happy >= 0.5, where };
    });
  } finally {
    tensor.dispose();
  }
}

/** One line per rule: real faces kept, invented ones, as ratios of the rule used before. */
function ruleLines(found: Found[]): string[] {
  const real = found.filter((f) => f.real).length;
  const tally = (rule: (f: Found) => boolean): { right: number; invented: Found[]; smiling: number } => {
    const kept = found.filter(rule);
    const invented = kept.filter((f) => !f.real);
    return { right: kept.length - invented.length, invented, smiling: invented.filter((f) => f.smiling).length };
  };
  const before = tally(RULES[1]![1]);
  return RULES.map(([name, rule]) => {
    const t = tally(rule);
    const precision = t.right / Math.max(1, t.right + t.invented.length);
    return (
      `${name.padEnd(36)} real ${t.right}/${real} (recall ${(t.right / Math.max(1, real)).toFixed(3)}, x${(t.right / Math.max(1, before.right)).toFixed(3)} of before)` +
      `  invented ${t.invented.length} (${before.invented.length ? `x${(t.invented.length / before.invented.length).toFixed(2)}` : 'before: 0'}; ${t.smiling} "smiling")` +
      `  precision ${precision.toFixed(3)}` +
      (t.invented.length > 0 && t.invented.length <= 6 ? `: ${t.invented.map((f) => f.where).join('; ')}` : '')
    );
  });
}

const bench: Benchmark = {
  name: 'face-confirm',
  description:
    'faces kept on real photos with a face and invented on photos without, per confirmation rule, in one run (the photos four ways, then the labelled frames); CPU of the landmark check against detection',
  async run() {
    const timing: Timing = { detectMs: 0, describeMs: 0, checkMs: 0, frames: 0 };
    const photos: Found[] = [];
    const total = FACE_PHOTOS.length * Object.keys(RENDITIONS).length + LABELLED_FRAMES.length;
    const progress = (): void => {
      process.stderr.write(
        `\rface-confirm: ${timing.frames}/${total} frames (${Math.round((100 * timing.frames) / total)}%)`,
      );
    };
    for (const photo of FACE_PHOTOS) {
      const path = await photo.path();
      for (const [rendition, vf] of Object.entries(RENDITIONS)) {
        photos.push(...(await facesIn(await rgbOf(path, vf), photo.face, `${photo.name} ${rendition}`, timing)));
        progress();
      }
    }
    const labelled: Found[] = [];
    for (const frame of LABELLED_FRAMES) {
      const found = await facesIn(await frameRgb(frame), frame.face === 'yes', frameName(frame), timing);
      // "either" (faces filmed from above at 30 px): not counted either way.
      if (frame.face !== 'either') labelled.push(...found);
      progress();
    }
    process.stderr.write('\n');
    const { detectMs, describeMs, checkMs, frames } = timing;
    const perFace = checkMs / Math.max(1, photos.length + labelled.length);
    const perFrame = (detectMs + describeMs) / frames;
    return [
      {
        what: `faces on ${FACE_PHOTOS.length * Object.keys(RENDITIONS).length} frames of ${FACE_PHOTOS.length} real photos (${photos.length} detections)`,
        lines: ruleLines(photos),
      },
      {
        what: `faces on the ${LABELLED_FRAMES.length} labelled frames of test/search-eval (${labelled.length} detections)`,
        lines: ruleLines(labelled),
      },
      {
        what: 'CPU',
        lines: [
          `landmark check ${(perFace * 1000).toFixed(1)} us a face; detection and description ${perFrame.toFixed(0)} ms a frame`,
          `check / (detection + description) per frame: ${((checkMs / frames / perFrame) * 100).toFixed(4)} %`,
          'landmark net runs on the same faces as before (those skin or a person box vouches for): no extra model work',
        ],
      },
    ];
  },
};

export default bench;
