import { ffmpegPath } from '../src/common/media/tools';
import { pixelVotes } from '../src/server/indexer/analyzers/face-confirm';
import { describeFaces } from '../src/server/indexer/analyzers/face-descriptors';
import { landmarkFaults } from '../src/server/indexer/analyzers/face-landmarks';
import { detectFaces, loadDetectionEngine } from '../src/server/indexer/analyzers/human-engine';
import { runTool } from '../src/server/indexer/process';
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

const bench: Benchmark = {
  name: 'face-confirm',
  description:
    'faces kept on real photos with a face and invented on photos without, per confirmation rule, in one run; CPU of the landmark check against detection',
  async run() {
    const engine = await loadDetectionEngine();
    const found: Found[] = [];
    let detectMs = 0;
    let describeMs = 0;
    let checkMs = 0;
    let frames = 0;
    const total = FACE_PHOTOS.length * Object.keys(RENDITIONS).length;
    for (const photo of FACE_PHOTOS) {
      const path = await photo.path();
      for (const [rendition, vf] of Object.entries(RENDITIONS)) {
        const rgb = await rgbOf(path, vf);
        const tensor = engine.tf.tensor3d(rgb, [H, W, 3], 'int32');
        try {
          let t = performance.now();
          const { result, faces, persons } = await detectFaces(engine, tensor);
          detectMs += performance.now() - t;
          t = performance.now();
          const described = await describeFaces(engine.faces, tensor, faces);
          describeMs += performance.now() - t;
          for (const face of described) {
            t = performance.now();
            const landmarks = landmarkFaults(face.landmarks, face.box).length === 0;
            checkMs += performance.now() - t;
            const happy = result.face[face.key]?.emotion?.find((e) => e.emotion === 'happy')?.score ?? 0;
            found.push({
              real: photo.face,
              votes: pixelVotes(face, persons, rgb, W, H),
              landmarks,
              smiling: happy >= 0.5,
              where: `${photo.name} ${rendition}`,
            });
          }
        } finally {
          tensor.dispose();
        }
        frames++;
        process.stderr.write(`\rface-confirm: ${frames}/${total} frames (${Math.round((100 * frames) / total)}%)`);
      }
    }
    process.stderr.write('\n');

    const real = found.filter((f) => f.real).length;
    const tally = (rule: (f: Found) => boolean): { right: number; invented: Found[]; smiling: number } => {
      const kept = found.filter(rule);
      const invented = kept.filter((f) => !f.real);
      return { right: kept.length - invented.length, invented, smiling: invented.filter((f) => f.smiling).length };
    };
    const before = tally(RULES[1]![1]);
    const lines = RULES.map(([name, rule]) => {
      const t = tally(rule);
      const precision = t.right / Math.max(1, t.right + t.invented.length);
      return (
        `${name.padEnd(36)} real ${t.right}/${real} (recall ${(t.right / real).toFixed(3)}, x${(t.right / before.right).toFixed(3)} of before)` +
        `  invented ${t.invented.length} (x${(t.invented.length / Math.max(1, before.invented.length)).toFixed(2)}; ${t.smiling} "smiling")` +
        `  precision ${precision.toFixed(3)}` +
        (t.invented.length > 0 && t.invented.length <= 6 ? `: ${t.invented.map((f) => f.where).join('; ')}` : '')
      );
    });
    const perFace = checkMs / Math.max(1, found.length);
    const perFrame = (detectMs + describeMs) / frames;
    return [
      { what: `faces on ${frames} frames of ${FACE_PHOTOS.length} real photos (${found.length} detections)`, lines },
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
