import { unmatchedWords } from '../../../shared/api-types';
import './unmatched-note.css';

/**
 * Beside the results: the query's words that no result matched ("no match for: crash"), so six hits for "car" are not
 * taken for six car crashes. Nothing when every word matched somewhere, or the service does not say (the cloud).
 */
export function UnmatchedNote({ hits }: { hits: readonly { missing?: string[] }[] }): React.JSX.Element | null {
  const words = unmatchedWords(hits);
  if (words.length === 0) return null;
  return (
    <p className="unmatched-note" role="note" data-testid="unmatched-note">
      <span className="unmatched-note-label">No match for:</span> {words.join(', ')}
      <span className="muted"> — these results match the other words only.</span>
    </p>
  );
}
