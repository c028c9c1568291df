import { engineAvailability } from './engine-availability';
import type { Availability, FrameAnalyzer, FrameFindings, Label, SegmentFrame } from '../types';
import { contentBox, cropRgb } from './frame-borders';
import { loadNsfwClassifier } from './nsfw-model';

export const DRAWING_SOURCE = 'drawing';

/**
 * nsfwjs's Drawing probability from which a frame is called drawn. Measured on 640 px keyframes: photographs score
 * 0.001 to 0.5 (a grey portrait 0.44, black bars around a photograph change nothing), posterized renders with ink
 * edges 0.85 to 0.98; one photograph in python3-skimage's set (a rocket launch against a white sky) scores 0.81 and is
 * labelled wrongly, at that weight. nsfwjs tells drawn from photographed, not cartoon from painting: every drawn frame
 * gets all five words.
 */
export const DRAWING_MIN = 0.6;
const DRAWING_WORDS = ['drawing', 'cartoon', 'illustration', 'painting', 'artwork'];

/** The drawing labels of a frame with this Drawing probability: none below DRAWING_MIN. */
export function drawingLabels(drawing: number): Label[] {
  if (drawing < DRAWING_MIN) return [];
  const score = Math.round(drawing * 1000) / 1000;
  return DRAWING_WORDS.map((label) => ({ label, score, source: DRAWING_SOURCE }));
}

/**
 * Drawn frames (cartoons, illustrations, paintings) told from photographs by nsfwjs's Drawing class, read inside the
 * frame's bars (see frame-borders.ts).
 */
export class DrawingAnalyzer implements FrameAnalyzer {
  readonly kind = 'frame';
  readonly name = 'drawing';
  version = 'nsfwjs (not loaded)';

  async available(): Promise<Availability> {
    const { availability, version } = await engineAvailability(loadNsfwClassifier, 'nsfwjs on tfjs wasm did not load');
    if (version) this.version = version;
    return availability;
  }

  async analyze(segment: SegmentFrame): Promise<FrameFindings> {
    const nsfw = await loadNsfwClassifier();
    const frame = await segment.rgb();
    const box = contentBox(frame, segment.width, segment.height);
    const rgb =
      box.width === segment.width && box.height === segment.height ? frame : cropRgb(frame, segment.width, box);
    const scores = await nsfw.classify(rgb, box.width, box.height);
    return { labels: drawingLabels(scores.Drawing) };
  }

  /** The classifier is the process's (the safety scan shares it), loaded once: nothing of this analyzer's to free. */
  async close(): Promise<void> {}
}
