import { z } from 'zod';

/** One stored label of a segment as search reads it (indexer/types.ts `Label`). */
export interface SegmentLabel {
  label: string;
  /** The analyzer and kind of descriptor: "objects:centernet", "colour:object", "people:count", "motion:camera"... */
  source: string;
  /** The label's weight, 0..1 (1 when the stored label has none). */
  score: number;
}

const labelsSchema = z.array(
  z.object({ label: z.string(), source: z.string(), score: z.number().min(0).max(1).optional() }),
);

/** A segment's `labels` column (JSON): its labels, or none when the column holds anything else. */
export function segmentLabels(json: string | null): SegmentLabel[] {
  // Anything but an array fails the schema: found without JSON.parse throwing, which costs a search more than parsing.
  if (!json || json.trimStart()[0] !== '[') return [];
  try {
    const parsed = labelsSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data.map(({ label, source, score }) => ({ label, source, score: score ?? 1 })) : [];
  } catch {
    return [];
  }
}

/** The sources whose labels coverage counts by their weight (see coverageLabel). */
const WEIGHTED_SOURCES = new Set(['colour:frame', 'colour:region', 'motion:camera']);

/**
 * A label as coverage reads it: the colour words of a frame and of its regions ("red", "colorful", "blue sky") count
 * by their weight, which says how much of the picture is that colour, so a frame all red outranks one with a red
 * tenth; the camera's moves ("static", "pan") by how surely the frames show them, so a camera held still while people
 * walk past outranks a photograph in which nothing moves. Other labels count whole: an object detector's score is not
 * calibrated across classes (its threshold already decided), and a coloured object ("red apple") has its own label.
 */
export function coverageLabel(l: SegmentLabel): string | { label: string; weight: number } {
  return WEIGHTED_SOURCES.has(l.source) ? { label: l.label, weight: l.score } : l.label;
}
