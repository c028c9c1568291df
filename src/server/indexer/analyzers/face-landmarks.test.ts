import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { packagedRgb, photoRgb } from '../../../../test/helpers/test-frames';
import { frameRgb } from '../../../../test/search-eval/label-frames';
import { LABELLED_FRAMES } from '../../../../test/search-eval/labelled-frames';
import { runTool } from '../process';
import { ffmpegPath } from '../../../common/media/tools';
import { confirmFaces, pixelVotes } from './face-confirm';
import { describeFaces, type DescribedFace, type Point } from './face-descriptors';
import { landmarkFaults, type LandmarkRule } from './face-landmarks';
import { detectFaces, loadDetectionEngine, packageDir } from './human-engine';
import type { Box } from './people-descriptors';

const W = 640;
const H = 360;

/** Every face blazeface finds in a frame, described by face-api whether or not anything vouches for it. */
async function meshes(rgb: Uint8Array): Promise<DescribedFace[]> {
  const engine = await loadDetectionEngine();
  const tensor = engine.tf.tensor3d(rgb, [H, W, 3], 'int32');
  try {
    const { faces } = await detectFaces(engine, tensor);
    return await describeFaces(engine.faces, tensor, faces);
  } finally {
    tensor.dispose();
  }
}

/** One of face-api's sample photos (group portraits shipped in its package) fitted into 640 x 360, maybe mirrored. */
async function sampleRgb(file: string, mirrored = false): Promise<Uint8Array> {
  const fit = `${mirrored ? 'hflip,' : ''}scale=640:360:force_original_aspect_ratio=decrease,pad=640:360:(ow-iw)/2:(oh-ih)/2,setsar=1`;
  const path = join(packageDir('@vladmandic/face-api'), 'demo', file);
  const { stdout } = await runTool(ffmpegPath(), [
    ...['-v', 'error', '-i', path, '-vf', fit, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
  ]);
  return new Uint8Array(stdout.buffer, stdout.byteOffset, stdout.length);
}

/**
 * A copy of a mesh with the points `ids` moved (`to`: all onto one point; else each by an offset), both given as (u, v):
 * along the eye line and down from the eyes' middle, in eye distances.
 */
function bent(points: Point[], ids: number[], how: 'to' | 'by', u: number, v: number): Point[] {
  const centre = (from: number, to: number): Point => {
    const part = points.slice(from, to);
    return { x: part.reduce((s, p) => s + p.x, 0) / part.length, y: part.reduce((s, p) => s + p.y, 0) / part.length };
  };
  const [l, r] = [centre(36, 42), centre(42, 48)];
  const [dx, dy] = [r.x - l.x, r.y - l.y];
  const offset = { x: u * dx - v * dy, y: u * dy + v * dx };
  const to = { x: (l.x + r.x) / 2 + offset.x, y: (l.y + r.y) / 2 + offset.y };
  return points.map((p, i) => (!ids.includes(i) ? p : how === 'to' ? to : { x: p.x + offset.x, y: p.y + offset.y }));
}

const MOUTH = Array.from({ length: 20 }, (_, i) => 48 + i);

let astronaut: DescribedFace;

beforeAll(async () => {
  const found = await meshes(await photoRgb('astronaut'));
  expect(found).toHaveLength(1);
  astronaut = found[0]!;
  expect(landmarkFaults(astronaut.landmarks, astronaut.box)).toEqual([]);
}, 120_000);

describe("a face's landmarks must lie like a face's", () => {
  it('passes the real meshes face-api reads on real faces, in colour and in a three-face group', async () => {
    const group = await meshes(await sampleRgb('sample1.jpg'));
    expect(group).toHaveLength(3);
    for (const face of group) expect(landmarkFaults(face.landmarks, face.box)).toEqual([]);
  }, 60_000);

  it('fails the meshes read where the detector boxed a water drop, a leaf and a book cover', async () => {
    const labelled = (file: string): Promise<Uint8Array> =>
      frameRgb(LABELLED_FRAMES.find((f) => 'photo' in f && f.photo === file)!);
    const cases: [string, Promise<Uint8Array>, LandmarkRule][] = [
      ['water drop', labelled('Aqua.jpg'), 'level'],
      ['leaf', labelled('LadyBird.jpg'), 'mouth'],
      ['book cover', packagedRgb('opencv', 'right.jpg'), 'level'],
    ];
    for (const [what, rgb, broken] of cases) {
      const found = await meshes(await rgb);
      expect(found.length, what).toBeGreaterThan(0);
      for (const face of found) expect(landmarkFaults(face.landmarks, face.box), what).toContain(broken);
    }
  }, 60_000);

  it('drops a book cover that skin alone let through, keeps what two signals vouch for despite a misread mesh', async () => {
    const engine = await loadDetectionEngine();
    const confirmedIn = async (rgb: Uint8Array): Promise<{ vouched: number; misread: number; kept: number }> => {
      const tensor = engine.tf.tensor3d(rgb, [H, W, 3], 'int32');
      try {
        const { faces, persons } = await detectFaces(engine, tensor);
        const all = await describeFaces(engine.faces, tensor, faces);
        const kept = await confirmFaces(faces, persons, rgb, W, H, (v) => describeFaces(engine.faces, tensor, v));
        return {
          vouched: faces.filter((f) => pixelVotes(f, persons, rgb, W, H) > 0).length,
          misread: all.filter((f) => landmarkFaults(f.landmarks, f.box).length > 0).length,
          kept: kept.length,
        };
      } finally {
        tensor.dispose();
      }
    };
    expect(await confirmedIn(await packagedRgb('opencv', 'right.jpg'))).toEqual({ vouched: 1, misread: 1, kept: 0 });
    expect(await confirmedIn(await photoRgb('astronaut'))).toEqual({ vouched: 1, misread: 0, kept: 1 });
    // Four people, mirrored: the landmark net misreads the one turned aside, whose skin and person box both vouch.
    expect(await confirmedIn(await sampleRgb('sample5.jpg', true))).toEqual({ vouched: 4, misread: 1, kept: 4 });
  }, 60_000);

  it('fails each rule when a real mesh is bent to break it', () => {
    const { landmarks: points, box } = astronaut;
    // Turned a quarter about the box's centre: the eyes one above the other.
    const [x, y, w, h] = box;
    const turned = points.map((p) => ({ x: x + w / 2 - (p.y - y - h / 2), y: y + h / 2 + (p.x - x - w / 2) }));
    const cases: [string, Point[], Box, LandmarkRule][] = [
      ['turned a quarter', turned, box, 'level'],
      ['in a box five times wider', points, [x - 2 * w, y, 5 * w, h], 'apart'],
      ['nose tip up on the eye line', bent(points, [30], 'to', 0, 0), box, 'nose below'],
      ['nose tip out past an eye', bent(points, [30], 'to', 1.5, 0.6), box, 'nose between'],
      ['mouth up level with the eyes', bent(points, MOUTH, 'by', 0, -0.9), box, 'mouth below'],
      ['mouth shrunk to a dot', bent(points, MOUTH, 'to', 0, 1), box, 'mouth'],
      ['nose tip right under one eye', bent(points, [30], 'to', 0.5, 0.2), box, 'symmetry'],
      ['mesh beside its box', points.map((p) => ({ x: p.x + w, y: p.y })), box, 'inside'],
      ['too few points', points.slice(0, 60), box, 'inside'],
    ];
    for (const [what, bent, b, rule] of cases) expect(landmarkFaults(bent, b), what).toContain(rule);
    // Each bend but the quarter turn breaks its one rule only: no rule stands in for another.
    for (const [what, bent, b, rule] of cases.slice(1, -1)) expect(landmarkFaults(bent, b), what).toEqual([rule]);
  });
});
