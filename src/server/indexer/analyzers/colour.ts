import type { FrameFindings, Label, SegmentFrame } from '../types';
import { frameLabels, regionLabels } from './colour-labels';
import { regionStats } from './colour-stats';
import { PixelAnalyzer } from './pixel-analyzer';

/** The colour words of a frame: named colours, colourfulness, black and white, brightness, and region words. */
export function colourLabels(rgb: Uint8Array, width: number, height: number): Label[] {
  const all = regionStats(rgb, width, height, { x0: 0, y0: 0, x1: width, y1: height });
  const top = regionStats(rgb, width, height, { x0: 0, y0: 0, x1: width, y1: height / 3 });
  const bottom = regionStats(rgb, width, height, { x0: 0, y0: (height * 2) / 3, x1: width, y1: height });
  return [...frameLabels(all, top), ...regionLabels(all, top, bottom)];
}

/** Colour descriptors from the keyframe's pixels (no model: a few milliseconds a frame). */
export class ColourAnalyzer extends PixelAnalyzer {
  readonly name = 'colour';
  readonly version = 'colour lab-bins 1';

  async analyze(segment: SegmentFrame): Promise<FrameFindings> {
    return { labels: colourLabels(await segment.rgb(), segment.width, segment.height) };
  }
}
