import { z } from 'zod';
import type { Availability, Face, FrameAnalyzer, FrameFindings, Label, SegmentFrame } from '../types';
import { detectRgb, loadHumanEngine, type HumanEngine } from './human-engine';

const boxSchema = z.tuple([z.number(), z.number(), z.number(), z.number()]);
const resultSchema = z.object({
  object: z.array(z.object({ label: z.string(), score: z.number() })),
  face: z.array(z.object({ score: z.number(), box: boxSchema, embedding: z.array(z.number()).optional() })),
});

/** The label source names the model, since COCO labels from another detector would score differently. */
export const OBJECT_SOURCE = 'objects:centernet';

/** Objects and people (COCO's 80 labels, centernet) and faces with their description embedding, by @vladmandic/human. */
export class ObjectsAnalyzer implements FrameAnalyzer {
  readonly kind = 'frame';
  readonly name = 'objects';
  version = 'human (not loaded)';
  private engine: HumanEngine | null = null;

  async available(): Promise<Availability> {
    try {
      this.engine = await loadHumanEngine();
      this.version = this.engine.version;
      return { ok: true };
    } catch (err) {
      return { ok: false, reason: `@vladmandic/human on tfjs wasm did not load: ${err instanceof Error ? err.message : String(err)}` };
    }
  }

  async analyze(segment: SegmentFrame): Promise<FrameFindings> {
    this.engine ??= await loadHumanEngine();
    const rgb = await segment.rgb();
    const result = resultSchema.parse(await detectRgb(this.engine, rgb, segment.width, segment.height));
    const labels: Label[] = result.object.map((o) => ({ label: o.label, score: round(o.score), source: OBJECT_SOURCE }));
    const faces: Face[] = result.face
      .filter((f): f is typeof f & { embedding: number[] } => (f.embedding?.length ?? 0) > 0)
      .map((f) => ({
        descriptor: f.embedding,
        box: [Math.round(f.box[0]), Math.round(f.box[1]), Math.round(f.box[2]), Math.round(f.box[3])],
        score: round(f.score),
      }));
    return { labels, faces };
  }

  /** The engine is shared by the process (tfjs has one global engine); nothing per analyzer to free. */
  async close(): Promise<void> {
    this.engine = null;
  }
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
