import type { FrameFindings, Label, SegmentFrame } from '../types';
import { frameLabels, regionLabels } from './colour-labels';
import { regionStats } from './colour-stats';
import { contentBox, cropRgb } from './frame-borders';
import { PixelAnalyzer } from './pixel-analyzer';

/**
 * The colour words of a frame: named colours, colourfulness, black and white, brightness, and region words, read on
 * the frame without its bars (a pillarboxed photo is not "black" nor "dark", and its top third is the photo's sky).
 */
export function colourLabels(frame: Uint8Array, frameWidth: number, frameHeight: number): Label[] {
  const box = contentBox(frame, frameWidth, frameHeight);
  const whole = box.width === frameWidth && box.height === frameHeight;
  const rgb = whole ? frame : cropRgb(frame, frameWidth, box);
  const { width, height } = box;
  const all = regionStats(rgb, width, height, { x0: 0, y0: 0, x1: width, y1: height });
  const top = regionStats(rgb, width, height, { x0: 0, y0: 0, x1: width, y1: height / 3 });
  const bottom = regionStats(rgb, width, height, { x0: 0, y0: (height * 2) / 3, x1: width, y1: height });
  return [...frameLabels(all, top), ...regionLabels(all, top, bottom)];
}

/** Colour descriptors from the keyframe's pixels (no model: a few milliseconds a frame). */
export class ColourAnalyzer extends PixelAnalyzer {
  readonly name = 'colour';
  readonly version = 'colour lab-bins 4';

  async analyze(segment: SegmentFrame): Promise<FrameFindings> {
    return { labels: colourLabels(await segment.rgb(), segment.width, segment.height) };
  }
}
