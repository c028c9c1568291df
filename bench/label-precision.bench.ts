import { OBJECT_SOURCE } from '../src/server/indexer/analyzers/objects';
import { DRAWING_SOURCE } from '../src/server/indexer/analyzers/drawing';
import { LABELLED_FRAMES } from '../test/search-eval/labelled-frames';
import { judgeFrame } from '../test/search-eval/judge-labels';
import type { Benchmark } from './harness';
import { frameName, labelFrames } from '../test/search-eval/label-frames';
import { drawingSignalTallies } from '../test/search-eval/drawing-signals';

interface Tally {
  right: number;
  invented: number;
  where: Set<string>;
}

/**
 * Every label the frame analyzers give (as indexed: what search matches and "why" shows) on real frames labelled by
 * what a person sees (test/search-eval/labelled-frames.ts), counted right or invented per class, split into the frames
 * thresholds were calibrated on and the held-out ones. Faces are counted as found faces on frames without one.
 */
const bench: Benchmark = {
  name: 'label-precision',
  description:
    'labels invented (false positives) and right per class on real labelled frames, calibration and held-out halves',
  async run() {
    const found = await labelFrames(LABELLED_FRAMES);
    const lines: string[] = [];
    for (const split of ['calibrate', 'held-out'] as const) {
      const tallies = new Map<string, Tally>();
      const add = (cls: string, right: boolean, where: string): void => {
        const t = tallies.get(cls) ?? { right: 0, invented: 0, where: new Set<string>() };
        if (right) t.right++;
        else {
          t.invented++;
          t.where.add(where);
        }
        tallies.set(cls, t);
      };
      let frames = 0;
      const missed: string[] = [];
      for (const [i, frame] of LABELLED_FRAMES.entries()) {
        if (frame.split !== split) continue;
        frames++;
        const name = frameName(frame);
        const { labels } = found[i]!;
        for (const v of judgeFrame(frame, found[i]!)) add(v.cls, v.right === true, `${name} ${v.what}`);
        const objects = new Set(labels.filter((l) => l.source === OBJECT_SOURCE).map((l) => l.label));
        for (const o of frame.objects) if (!objects.has(o) && frame.objects.length <= 3) missed.push(`${name}: ${o}`);
        if (frame.drawn === 'yes' && !labels.some((l) => l.source === DRAWING_SOURCE)) missed.push(`${name}: drawing`);
      }
      const all = [...tallies.values()];
      const invented = all.reduce((s, t) => s + t.invented, 0);
      const right = all.reduce((s, t) => s + t.right, 0);
      lines.push(`${split}: ${frames} frames, ${invented} labels invented, ${right} right`);
      for (const [cls, t] of [...tallies].sort((a, b) => b[1].invented - a[1].invented || a[0].localeCompare(b[0])))
        lines.push(
          `  ${cls.padEnd(24)} invented ${String(t.invented).padStart(3)}  right ${String(t.right).padStart(3)}${t.invented ? `   ${[...t.where].join('; ')}` : ''}`,
        );
      lines.push(`  not found: ${missed.join(', ') || 'none'}`);
    }
    const drawn = LABELLED_FRAMES.filter((f) => f.drawn === 'yes').length;
    const photographed = LABELLED_FRAMES.filter((f) => f.drawn === 'no').length;
    const signals = (await drawingSignalTallies(LABELLED_FRAMES)).map(
      (t) =>
        `${t.signal.padEnd(14)} drawn ${t.drawn}/${drawn}   photographs ${t.photographed.length}/${photographed}${t.photographed.length ? `   ${t.photographed.join(', ')}` : ''}`,
    );
    return [
      { what: `labels on ${LABELLED_FRAMES.length} labelled real frames`, lines },
      {
        what: 'each drawing signal alone (labels need two that agree), on the frames labelled drawn or not',
        lines: signals,
      },
    ];
  },
};

export default bench;
