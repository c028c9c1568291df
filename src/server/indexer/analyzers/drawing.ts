import { engineAvailability } from './engine-availability';
import type { Availability, FrameAnalyzer, FrameFindings, Label, SegmentFrame } from '../types';
import { contentBox, cropRgb } from './frame-borders';
import { loadNsfwClassifier } from './nsfw-model';

export const DRAWING_SOURCE = 'drawing';

/**
 * nsfwjs's Drawing probability above which a frame is called drawn. Measured on 640 px keyframes: photographs score
 * 0.01 to 0.5 (a grey portrait 0.44), drawn frames 0.76 and up; one photograph in python3-skimage's set (a rocket
 * launch against a white sky) scores 0.81 and is labelled wrongly, at that weight.
 */
export const DRAWING_MIN = 0.6;
/**
 * Share of neighbouring pixel pairs of (nearly) one colour from which a drawing is flat-coloured, a cartoon, rather
 * than textured, a painting: flat-filled shapes measure 0.92 to 0.97, photographs 0.58 to 0.70, a painted-looking
 * photograph 0.53.
 */
export const CARTOON_FLATNESS = 0.85;
const FLAT_STEP = 3;

/** Drawing, illustration, artwork for every drawn frame, and cartoon or painting by how flat its colours are. */
export function drawingLabels(drawing: number, flatness: number): Label[] {
  if (drawing < DRAWING_MIN) return [];
  const score = Math.round(drawing * 1000) / 1000;
  const kind = flatness >= CARTOON_FLATNESS ? 'cartoon' : 'painting';
  return ['drawing', 'illustration', 'artwork', kind].map((label) => ({ label, score, source: DRAWING_SOURCE }));
}

/** Share of horizontally adjacent pixel pairs (every second row and column) whose channels differ by at most 3. */
export function flatness(rgb: Uint8Array, width: number, height: number): number {
  let flat = 0;
  let pairs = 0;
  for (let y = 0; y < height; y += 2) {
    for (let x = 0; x + 1 < width; x += 2) {
      const i = (y * width + x) * 3;
      let diff = 0;
      for (let c = 0; c < 3; c++) diff = Math.max(diff, Math.abs((rgb[i + c] ?? 0) - (rgb[i + 3 + c] ?? 0)));
      pairs++;
      if (diff <= FLAT_STEP) flat++;
    }
  }
  return pairs === 0 ? 0 : flat / pairs;
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
    if (scores.Drawing < DRAWING_MIN) return { labels: [] };
    return { labels: drawingLabels(scores.Drawing, flatness(rgb, box.width, box.height)) };
  }

  /** The classifier is the process's (the safety scan shares it), loaded once: nothing of this analyzer's to free. */
  async close(): Promise<void> {}
}
