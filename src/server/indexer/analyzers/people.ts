import { engineAvailability } from './engine-availability';
import type { Availability, FrameAnalyzer, FrameFindings, SegmentFrame } from '../types';
import { detectRgb, loadDetectionEngine } from './human-engine';
import { describePeople, withoutAgeBands } from './people-descriptors';
import { confirmPeople } from './person-confirm';
import { frameLooksDrawn } from './drawn-frame';

/**
 * People descriptors (how many, shot size, smiling, age band, gestures) from the human engine's detections. The
 * detections are the objects analyzer's own (human-engine.ts runs each keyframe once for both); the engine is the
 * process's, loaded once, so there is nothing of its own to keep or free. A frame the drawing signals call drawn or
 * animated (drawn-frame.ts, judged once for both analyzers) gets no age band. Unsure person boxes count only with a second
 * signal (person-confirm.ts).
 */
export class PeopleAnalyzer implements FrameAnalyzer {
  readonly kind = 'frame';
  readonly name = 'people';
  readonly keyframeOnly = true;
  version = 'human (not loaded)';

  async available(): Promise<Availability> {
    const { availability, version } = await engineAvailability(
      loadDetectionEngine,
      'people descriptors need @vladmandic/human and face-api on tfjs wasm',
    );
    if (version) this.version = version;
    return availability;
  }

  async analyze(segment: SegmentFrame): Promise<FrameFindings> {
    const engine = await loadDetectionEngine();
    const rgb = await segment.rgb();
    const found = await detectRgb(engine, rgb, segment.width, segment.height);
    const labels = describePeople(confirmPeople(found.people), segment.width, segment.height);
    const ageless = withoutAgeBands(labels);
    if (ageless.length === labels.length) return { labels };
    return { labels: (await drawnIfKnown(rgb, segment.width, segment.height)) ? ageless : labels };
  }

  async close(): Promise<void> {}
}

/**
 * Whether the frame is drawn; false when that cannot be read (nsfwjs did not load), so the ages are kept (the drawing
 * analyzer reports the same failure on the segment).
 */
async function drawnIfKnown(rgb: Uint8Array, width: number, height: number): Promise<boolean> {
  try {
    return await frameLooksDrawn(rgb, width, height);
  } catch {
    return false;
  }
}
