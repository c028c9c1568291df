import { z } from 'zod';

/** One stored label of a segment as search reads it (indexer/types.ts `Label`; its score is not needed here). */
export interface SegmentLabel {
  label: string;
  /** The analyzer and kind of descriptor: "objects:centernet", "colour:object", "people:count", "motion:camera"... */
  source: string;
}

const labelsSchema = z.array(z.object({ label: z.string(), source: z.string() }));

/** A segment's `labels` column (JSON): its labels, or none when the column holds anything else. */
export function segmentLabels(json: string | null): SegmentLabel[] {
  // Anything but an array fails the schema: found without JSON.parse throwing, which costs a search more than parsing.
  if (!json || json.trimStart()[0] !== '[') return [];
  try {
    const parsed = labelsSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data.map(({ label, source }) => ({ label, source })) : [];
  } catch {
    return [];
  }
}
