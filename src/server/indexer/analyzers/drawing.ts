import { engineAvailability } from './engine-availability';
import type { Availability, FrameAnalyzer, FrameFindings, Label, SegmentFrame } from '../types';
import { contentBox, cropRgb } from './frame-borders';
import { drawnLook, type DrawnLook } from './drawn-look';
import { loadNsfwClassifier } from './nsfw-model';
import { descriptor } from './pixel-analyzer';
import { BLANK_SPREAD } from '../blank-frame';

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
/** An inked drawing: this share of the picture on thin dark lines... */
const INKED_MIN_INK = 0.025;
/** ...with this share of it flat colour (photographs with as many dark lines, a circuit board, a bird's plumage, are
 * textured everywhere). */
const INKED_MIN_FLAT = 0.4;
const INKED_WORDS = ['drawing', 'cartoon', 'illustration', 'artwork'];
/** A painting: nsfwjs half-sure it is drawn (measured: two paintings 0.54 and 0.55, photographs up to 0.51)... */
const PAINTED_MIN_DRAWING = 0.45;
/** ...no flat part (< 5 % flat, the smoothest tenth still textured)... */
const PAINTED_MAX_FLAT = 0.05;
const PAINTED_MIN_TEXTURE_FLOOR = 5;
/** ...and strokes every way: a circuit board's or a facade's edges run along the axes (0.28-0.3, paintings 0.17-0.2). */
const PAINTED_MAX_AXIS_SHARE = 0.25;
const PAINTED_WORDS = ['painting', 'artwork'];
/** Texture floor from which the strokes alone make a painting (measured: a painting 11.5-11.7; photographs of fur,
 * foliage, a city from above 1-5.8; a circuit board 12.7, kept out by its axis share). */
const PAINTED_ALONE_TEXTURE_FLOOR = 8;

/**
 * The drawing labels of a frame, from nsfwjs's Drawing probability and, when given, the picture's drawn look: from
 * DRAWING_MIN every word at that probability; below it, ink outlines around flat colour (a cartoon nsfwjs misses) give
 * the drawing words but "painting", and brush strokes everywhere on a picture nsfwjs is half-sure of give "painting"
 * and "artwork". Each word takes its largest weight. A blank frame gets none.
 */
export function drawingLabels(drawing: number, look?: DrawnLook): Label[] {
  if (look && look.spread < BLANK_SPREAD) return [];
  const weights = new Map<string, number>();
  const add = (words: string[], weight: number): void => {
    for (const w of words) weights.set(w, Math.max(weights.get(w) ?? 0, weight));
  };
  if (drawing >= DRAWING_MIN) add(DRAWING_WORDS, drawing);
  if (look && look.inkShare >= INKED_MIN_INK && look.flatShare >= INKED_MIN_FLAT) {
    add(INKED_WORDS, DRAWING_MIN + 4 * (look.inkShare - INKED_MIN_INK) + 0.3 * (look.flatShare - INKED_MIN_FLAT));
  }
  const painterly =
    look &&
    look.flatShare < PAINTED_MAX_FLAT &&
    look.textureFloor >= PAINTED_MIN_TEXTURE_FLOOR &&
    look.axisShare < PAINTED_MAX_AXIS_SHARE;
  if (painterly && drawing >= PAINTED_MIN_DRAWING) add(PAINTED_WORDS, drawing + 0.25);
  // Strokes so dense that no tenth of the picture is smoother than this is a painting whatever nsfwjs says (it scored
  // the same painting 0.54 from the photo and 0.1 from a video's keyframe of it), at a lower weight.
  if (painterly && look.textureFloor >= PAINTED_ALONE_TEXTURE_FLOOR) add(PAINTED_WORDS, 0.5 + drawing);
  return [...weights].map(([label, weight]) => descriptor(label, weight, DRAWING_SOURCE));
}

/**
 * Drawn frames (cartoons, illustrations, paintings) told from photographs by nsfwjs's Drawing class and the picture's
 * drawn look (drawn-look.ts), read inside the frame's bars (see frame-borders.ts).
 */
export class DrawingAnalyzer implements FrameAnalyzer {
  readonly kind = 'frame';
  readonly name = 'drawing';
  readonly keyframeOnly = true;
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
    return { labels: drawingLabels(scores.Drawing, drawnLook(rgb, box.width, box.height)) };
  }

  /** The classifier is the process's (the safety scan shares it), loaded once: nothing of this analyzer's to free. */
  async close(): Promise<void> {}
}
