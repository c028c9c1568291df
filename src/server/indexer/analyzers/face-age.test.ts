import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photoPath } from '../../../../test/fixtures/media';
import { stillFrame } from '../../../../test/helpers/still-frame';
import { tempDir } from '../../../../test/helpers/temp';
import { ageFromClasses, childCheckAges, scaledBox } from './face-age';
import { describeFaces } from './face-descriptors';
import { detectFaces, loadDetectionEngine } from './human-engine';

let dir = '';
let cleanup: () => Promise<void> = async () => {};

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-face-age-'));
});

afterAll(async () => {
  await cleanup();
});

describe('the readings a child band needs', () => {
  it("reads faceres' 100 age classes (years) as human does: the likeliest, moved towards its likelier neighbour", () => {
    const p = new Array<number>(100).fill(0);
    p[3] = 0.7;
    p[4] = 0.2;
    p[2] = 0.1;
    expect(ageFromClasses(p)).toBe(5);
    p[2] = 0.25;
    expect(ageFromClasses(p)).toBe(0.5);
  });

  it('shrinks and grows a box about its centre', () => {
    expect(scaledBox([100, 50, 40, 20], 0.5)).toEqual([110, 55, 20, 10]);
    expect(scaledBox([100, 50, 40, 20], 1.5)).toEqual([90, 45, 60, 30]);
  });

  it("reads a grown-up's face five more times (faceres as found, both nets shrunk and grown), none a child's", async () => {
    const still = await stillFrame(dir, 'astronaut', ['-i', await photoPath('astronaut'), '-vf', 'scale=640:-2']);
    const engine = await loadDetectionEngine();
    const image = engine.tf.tensor3d(await still.rgb(), [still.height, still.width, 3], 'int32');
    try {
      const { faces } = await detectFaces(engine, image);
      const [face] = await describeFaces(engine.faces, image, faces);
      expect(face).toBeDefined();
      const before = engine.tf.memory().numTensors;
      const ages = await childCheckAges(engine.faces, engine.ages, engine.tf, image, face!);
      expect(engine.tf.memory().numTensors).toBe(before);
      expect(ages).toHaveLength(5);
      for (const age of ages) expect(age).toBeGreaterThan(16);
      for (const age of ages) expect(age).toBeLessThan(70);
    } finally {
      image.dispose();
    }
  }, 60_000);
});
