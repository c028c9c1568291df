import { DRAWING_SOURCE } from '../../src/server/indexer/analyzers/drawing';
import { OBJECT_COLOUR_SOURCE } from '../../src/server/indexer/analyzers/object-colour';
import { OBJECT_SOURCE } from '../../src/server/indexer/analyzers/objects';
import { PEOPLE_SOURCES } from '../../src/server/indexer/analyzers/people-descriptors';
import type { Label } from '../../src/server/indexer/types';
import type { FrameLabels } from './label-frames';
import type { LabelledFrame } from './labelled-frames';

/** One label's verdict on a labelled frame: its class for the tally, right, invented (false) or not countable (null). */
export interface Verdict {
  cls: string;
  right: boolean | null;
  what: string;
}

const truth = (t: 'yes' | 'no' | 'either'): boolean | null => (t === 'either' ? null : t === 'yes');

function judgeLabel(frame: LabelledFrame, l: Label): { cls: string; right: boolean | null } {
  switch (l.source) {
    case OBJECT_SOURCE:
      return { cls: l.label, right: frame.objects.includes(l.label) };
    case OBJECT_COLOUR_SOURCE: {
      const object = l.label.split(' ').slice(1).join(' ');
      return { cls: `colour+${object}`, right: frame.objects.includes(object) };
    }
    case PEOPLE_SOURCES.face:
      return { cls: `face:${l.label}`, right: truth(l.label === 'child' ? frame.child : frame.face) };
    case PEOPLE_SOURCES.count:
    case PEOPLE_SOURCES.shot:
    case PEOPLE_SOURCES.pose:
      return { cls: `people:${l.label}`, right: truth(frame.people) };
    case DRAWING_SOURCE:
      return { cls: 'drawing', right: truth(frame.drawn) };
    default:
      return { cls: l.source, right: null };
  }
}

/**
 * Every label, stored face and scene-text word the analyzers gave a labelled frame, judged against what a person
 * sees: words read on a frame without text and faces on a frame without a face are invented.
 */
export function judgeFrame(frame: LabelledFrame, found: FrameLabels): Verdict[] {
  const verdicts: Verdict[] = found.labels.map((l) => ({ ...judgeLabel(frame, l), what: `${l.label} ${l.score}` }));
  if (found.faces > 0) verdicts.push({ cls: 'face (stored)', right: truth(frame.face), what: `x${found.faces}` });
  const words = found.ocrText.split(/\s+/).filter(Boolean);
  if (frame.text === 'no') for (const w of words) verdicts.push({ cls: 'scene text', right: false, what: `"${w}"` });
  else if (frame.text === 'yes' && words.length)
    verdicts.push({ cls: 'scene text', right: true, what: words.join(' ') });
  return verdicts.filter((v) => v.right !== null);
}
