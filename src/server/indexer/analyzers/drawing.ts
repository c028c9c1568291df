import { engineAvailability } from './engine-availability';
import type { Availability, FrameAnalyzer, FrameFindings, SegmentFrame } from '../types';
import { drawnFrameLabels } from './drawn-frame';
import { loadDrawnJudge } from '../worker/nsfw-thread';

export { DRAWING_MIN, DRAWING_SOURCE, drawingLabels } from './drawing-labels';

/**
 * Drawn frames (cartoons, illustrations, paintings) told from photographs when nsfwjs's Drawing class and the picture's
 * drawn look (drawn-look.ts) agree (drawing-labels.ts), read inside the frame's bars (see frame-borders.ts).
 */
export class DrawingAnalyzer implements FrameAnalyzer {
  readonly kind = 'frame';
  readonly name = 'drawing';
  readonly keyframeOnly = true;
  version = 'nsfwjs (not loaded)';

  async available(): Promise<Availability> {
    const { availability, version } = await engineAvailability(loadDrawnJudge, 'nsfwjs on tfjs wasm did not load');
    if (version) this.version = version;
    return availability;
  }

  async analyze(segment: SegmentFrame): Promise<FrameFindings> {
    return { labels: await drawnFrameLabels(await segment.rgb(), segment.width, segment.height) };
  }

  /** The classifier is the process's (the safety scan shares it), loaded once: nothing of this analyzer's to free. */
  async close(): Promise<void> {}
}
