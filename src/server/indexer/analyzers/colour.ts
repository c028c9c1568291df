import type { FrameFindings, Label, SegmentFrame } from '../types';
import { frameLabels, regionLabels } from './colour-labels';
import { regionStats } from './colour-stats';
import { contentBox, cropRgb } from './frame-borders';
import { PixelAnalyzer } from './pixel-analyzer';
import { shotQuality } from './shot-quality';

interface Content {
  rgb: Uint8Array;
  width: number;
  height: number;
}

/** The frame without its bars: a pillarboxed photo is not "black" nor "dark", nor its bars clipped shadows. */
function contentOf(frame: Uint8Array, frameWidth: number, frameHeight: number): Content {
  const box = contentBox(frame, frameWidth, frameHeight);
  const whole = box.width === frameWidth && box.height === frameHeight;
  return { rgb: whole ? frame : cropRgb(frame, frameWidth, box), width: box.width, height: box.height };
}

/** Named colours, colourfulness, black and white, brightness, and region words (its top third is the photo's sky). */
function labelsOf({ rgb, width, height }: Content): Label[] {
  const all = regionStats(rgb, width, height, { x0: 0, y0: 0, x1: width, y1: height });
  const top = regionStats(rgb, width, height, { x0: 0, y0: 0, x1: width, y1: height / 3 });
  const bottom = regionStats(rgb, width, height, { x0: 0, y0: (height * 2) / 3, x1: width, y1: height });
  return [...frameLabels(all, top), ...regionLabels(all, top, bottom)];
}

/** The colour words of a frame, read on the frame without its bars. */
export function colourLabels(frame: Uint8Array, frameWidth: number, frameHeight: number): Label[] {
  return labelsOf(contentOf(frame, frameWidth, frameHeight));
}

/**
 * Colour descriptors from the keyframe's pixels (no model: a few milliseconds a frame), and the shot's picture quality
 * (shot-quality.ts) measured on the same pixels without their bars, for search to break ties with.
 */
export class ColourAnalyzer extends PixelAnalyzer {
  readonly name = 'colour';
  readonly version = 'colour lab-bins 4, shot quality 1';

  async analyze(segment: SegmentFrame): Promise<FrameFindings> {
    const content = contentOf(await segment.rgb(), segment.width, segment.height);
    return { labels: labelsOf(content), shotQuality: shotQuality(content.rgb, content.width, content.height).quality };
  }
}
