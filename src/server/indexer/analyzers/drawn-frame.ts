import type { Label } from '../types';
import { drawingLabels } from './drawing-labels';
import { drawnLook } from './drawn-look';
import { contentBox, cropRgb } from './frame-borders';
import type { NsfwClassifier } from './nsfw-model';
import { loadDrawnJudge } from '../worker/nsfw-thread';

/** Each frame's drawing labels, kept while its pixels live: the drawing and people analyzers both ask for them. */
const judged = new WeakMap<Uint8Array, Promise<Label[]>>();

/**
 * The drawing labels of a frame of packed RGB pixels (see drawingLabels), read inside its bars (frame-borders.ts). The
 * same pixels (the same array) are judged once, however many analyzers ask.
 */
export function drawnFrameLabels(rgb: Uint8Array, width: number, height: number): Promise<Label[]> {
  let labels = judged.get(rgb);
  if (!labels) {
    labels = loadDrawnJudge().then((j) => j.judge(rgb, width, height));
    judged.set(rgb, labels);
  }
  return labels;
}

/** Whether the agreed signals call the frame drawn or animated (it has any drawing label). */
export async function frameLooksDrawn(rgb: Uint8Array, width: number, height: number): Promise<boolean> {
  return (await drawnFrameLabels(rgb, width, height)).length > 0;
}

/** The judgement itself, on a classifier (run in the nsfwjs thread, nsfw-worker.ts). */
export async function judgeDrawn(
  nsfw: NsfwClassifier,
  frame: Uint8Array,
  width: number,
  height: number,
): Promise<Label[]> {
  const box = contentBox(frame, width, height);
  const rgb = box.width === width && box.height === height ? frame : cropRgb(frame, width, box);
  const scores = await nsfw.classify(rgb, box.width, box.height);
  return drawingLabels(scores.Drawing, drawnLook(rgb, box.width, box.height));
}
