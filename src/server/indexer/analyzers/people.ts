import { engineAvailability } from './engine-availability';
import type { Availability, FrameAnalyzer, FrameFindings, SegmentFrame } from '../types';
import { detectRgb, loadDetectionEngine } from './human-engine';
import { describePeople } from './people-descriptors';

/**
 * People descriptors (how many, shot size, smiling, age band, gestures) from the human engine's detections. The
 * detections are the objects analyzer's own (human-engine.ts runs each keyframe once for both); the engine is the
 * process's, loaded once, so there is nothing of its own to keep or free.
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
    const found = await detectRgb(engine, await segment.rgb(), segment.width, segment.height);
    return { labels: describePeople(found.people, segment.width, segment.height) };
  }

  async close(): Promise<void> {}
}
