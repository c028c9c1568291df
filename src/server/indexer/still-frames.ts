import { picturesDiffer } from './analyzers/ocr';
import type { SegmentFrame } from './types';

export interface StillFrames {
  /**
   * Whether the segment at `position` shows the same picture as the one before it (a still shot split by length):
   * their keyframes differ in no 16 x 16 block (the test OCR uses to reuse a read). False for the first segment, and
   * when either keyframe cannot be decoded.
   */
  same(position: number): Promise<boolean>;
}

/**
 * Keyframe-to-keyframe comparison of consecutive segments, each done once however many analyzers ask. The runner asks
 * for segment p + 1 before it releases segment p, so both pixels are still decoded when they are compared.
 */
export function stillFrames(frames: SegmentFrame[]): StillFrames {
  const answers = new Map<number, Promise<boolean>>();
  const compare = async (before: SegmentFrame, after: SegmentFrame): Promise<boolean> => {
    if (before.width !== after.width || before.height !== after.height) return false;
    const [a, b] = await Promise.all([before.rgb(), after.rgb()]);
    return !picturesDiffer(a, b, after.width, after.height);
  };
  return {
    same: (position) => {
      const before = frames[position - 1];
      const after = frames[position];
      if (!before || !after) return Promise.resolve(false);
      let answer = answers.get(position);
      if (!answer) {
        answer = compare(before, after).catch(() => false);
        answers.set(position, answer);
      }
      return answer;
    },
  };
}
