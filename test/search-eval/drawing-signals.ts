import { DRAWN_SIGNALS, drawnSignals, type DrawnSignal } from '../../src/server/indexer/analyzers/drawing-labels';
import { drawnLook } from '../../src/server/indexer/analyzers/drawn-look';
import { contentBox, cropRgb } from '../../src/server/indexer/analyzers/frame-borders';
import { loadNsfwClassifier } from '../../src/server/indexer/analyzers/nsfw-model';
import { KEYFRAME_WIDTH } from '../../src/server/indexer/scene-cuts';
import { frameName, frameRgb } from './label-frames';
import type { LabelledFrame } from './labelled-frames';

export interface SignalTally {
  signal: DrawnSignal;
  /** Drawn frames it fires on, of all drawn ones. */
  drawn: number;
  /** Photographed frames it fires on (each one alone would be an invented label), by name. */
  photographed: string[];
}

/**
 * Each sign of a drawn picture (drawing-labels.ts) on its own, over the labelled frames a person called drawn or
 * photographed ('either' left out): how many drawn frames it would catch alone and which photographs it would call
 * drawn. The drawing labels need two that agree; this shows what each alone would do.
 */
export async function drawingSignalTallies(frames: LabelledFrame[]): Promise<SignalTally[]> {
  const nsfw = await loadNsfwClassifier();
  const tallies = new Map<DrawnSignal, SignalTally>(
    DRAWN_SIGNALS.map((signal) => [signal, { signal, drawn: 0, photographed: [] }]),
  );
  const height = (KEYFRAME_WIDTH * 9) / 16;
  for (const frame of frames) {
    if (frame.drawn === 'either') continue;
    const whole = await frameRgb(frame);
    const box = contentBox(whole, KEYFRAME_WIDTH, height);
    const rgb = cropRgb(whole, KEYFRAME_WIDTH, box);
    const { Drawing } = await nsfw.classify(rgb, box.width, box.height);
    for (const signal of drawnSignals(Drawing, drawnLook(rgb, box.width, box.height))) {
      const t = tallies.get(signal)!;
      if (frame.drawn === 'yes') t.drawn++;
      else t.photographed.push(frameName(frame));
    }
  }
  return [...tallies.values()];
}
