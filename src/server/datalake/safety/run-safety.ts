import type { Events } from '../events';
import { EventMerger, unsafeScore, type SafetyRange } from './merge-events';
import { loadSafetyEngine } from './nsfw-engine';
import { sampleFrames, SAMPLE_SIZE } from './sample-frames';

export interface SafetyRun {
  videoId: string;
  videoPath: string;
  durationSeconds: number;
  fps: number;
  threshold: number;
  maxEventSeconds: number;
  events: Events;
  signal: AbortSignal;
  onFraction: (fraction: number) => Promise<void>;
}

/** Classifies sampled frames and writes each event as soon as its range closes (readers see them while this runs). */
export async function runSafety(run: SafetyRun): Promise<{ frames: number; events: number }> {
  const engine = await loadSafetyEngine();
  await run.events.clear(run.videoId);
  const merger = new EventMerger(run.threshold, 1 / run.fps, run.maxEventSeconds);
  let written = 0;
  const write = async (ranges: SafetyRange[]): Promise<void> => {
    for (const r of ranges) {
      await run.events.add(run.videoId, {
        start: r.start,
        end: r.end,
        score: Math.round(r.score * 10_000) / 10_000,
        description: `${r.className} content likely: peak score ${r.score.toFixed(3)} at ${r.peakAt.toFixed(1)} s over ${r.frames} sampled frame${r.frames === 1 ? '' : 's'}`,
        detectorId: engine.detectorId,
        detectorVersion: engine.detectorVersion,
      });
      written += 1;
    }
  };
  let frames = 0;
  const expected = Math.max(1, Math.ceil(run.durationSeconds * run.fps));
  for await (const frame of sampleFrames(run.videoPath, run.fps, run.signal)) {
    const scores = await engine.classify(frame.rgb, SAMPLE_SIZE, SAMPLE_SIZE);
    await run.events.addFrame(run.videoId, frame.t, unsafeScore(scores).score, scores);
    await write(merger.push({ t: frame.t, scores }));
    frames += 1;
    await run.onFraction(Math.min(0.99, frames / expected));
  }
  await write(merger.finish(run.durationSeconds));
  if (frames === 0) throw new Error('no frame could be sampled for the safety detector');
  return { frames, events: written };
}
