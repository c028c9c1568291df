import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeRgb, extractFrameAt, imageSize } from './frames';
import type { CutFrame } from './scene-cuts';
import type { PlannedSegment } from './segment-plan';
import { unreachable, type SegmentFrame } from './types';

/**
 * Gives every planned segment its own keyframe file (keyframe-0007.jpg), extracting the ones that had no cut keyframe,
 * and deletes cut frames no segment uses.
 */
export async function materializeFrames(
  videoPath: string,
  workDir: string,
  plan: PlannedSegment[],
  cuts: CutFrame[],
  signal?: AbortSignal,
): Promise<SegmentFrame[]> {
  const used = new Set<string>();
  const paths: string[] = [];
  for (const segment of plan) {
    const target = join(workDir, `keyframe-${String(segment.index).padStart(4, '0')}.jpg`);
    const frame = segment.frame;
    switch (frame.kind) {
      case 'cut':
        if (used.has(frame.file)) {
          await extractFrameAt(videoPath, segment.start + Math.min(0.5, (segment.end - segment.start) / 2), target, signal);
        } else {
          used.add(frame.file);
          await rename(frame.file, target);
        }
        break;
      case 'seek':
        await extractFrameAt(videoPath, frame.time, target, signal);
        break;
      default:
        throw unreachable(frame);
    }
    paths.push(target);
  }
  await Promise.all(cuts.filter((c) => !used.has(c.file)).map((c) => rm(c.file, { force: true })));

  const first = paths[0];
  if (!first) return [];
  const size = cuts[0] ?? (await imageSize(first, signal));
  return plan.map((segment, i) => {
    const keyframePath = paths[i] ?? first;
    let rgb: Promise<Uint8Array> | null = null;
    return {
      index: segment.index,
      start: segment.start,
      end: segment.end,
      keyframePath,
      width: size.width,
      height: size.height,
      rgb: () => (rgb ??= decodeRgb(keyframePath, size.width, size.height, signal)),
    };
  });
}
