import type { Availability, Face, FrameAnalyzer, FrameFindings, Label, SegmentFrame } from '../types';
import { FACE_MODEL } from './face-match';
import { detectRgb, loadDetectionEngine, type DetectionEngine } from './human-engine';
import { objectColourLabels } from './object-colour';
import { passesObjectThreshold } from './object-thresholds';
import { confirmedPersons } from './person-confirm';

/** The label source names the model, since COCO labels from another detector would score differently. */
export const OBJECT_SOURCE = 'objects:centernet';

/**
 * Objects and people (COCO's 80 labels, centernet, by @vladmandic/human) and faces: found by human's detector,
 * described by @vladmandic/face-api (128 numbers, tagged with the model so other models' descriptors are never compared).
 * Each object's box also gives its colour ("red motorcycle", see object-colour.ts). Only detections above their class's
 * threshold (object-thresholds.ts) are indexed.
 */
export class ObjectsAnalyzer implements FrameAnalyzer {
  readonly kind = 'frame';
  readonly name = 'objects';
  readonly keyframeOnly = true;
  version = 'human (not loaded)';
  private engine: DetectionEngine | null = null;

  async available(): Promise<Availability> {
    try {
      this.engine = await loadDetectionEngine();
      this.version = this.engine.version;
      return { ok: true };
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      return { ok: false, reason: `@vladmandic/human and @vladmandic/face-api on tfjs wasm did not load: ${reason}` };
    }
  }

  async analyze(segment: SegmentFrame): Promise<FrameFindings> {
    this.engine ??= await loadDetectionEngine();
    const rgb = await segment.rgb();
    const found = await detectRgb(this.engine, rgb, segment.width, segment.height);
    // Only classes sure enough to be indexed get a label, and so a colour; a person also needs a second signal
    // (person-confirm.ts) or, below the class threshold, a confirmed face inside its box.
    const persons = confirmedPersons(found.people);
    const objects = found.objects.filter((o) => passesObjectThreshold(o, found.people.faces, persons));
    const labels: Label[] = objects.map((o) => ({
      label: o.label,
      score: round(o.score),
      source: OBJECT_SOURCE,
    }));
    labels.push(...objectColourLabels(rgb, segment.width, segment.height, objects));
    const faces: Face[] = found.faces.map((f) => ({
      descriptor: Array.from(f.descriptor),
      model: FACE_MODEL,
      box: f.box,
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
