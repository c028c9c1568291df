import { Sparkles } from 'lucide-react';
import { modelCost, useSemanticModel } from '../hooks/useSemanticModel';
import './semantic-hint.css';

/**
 * Beside search results while the optional semantic model is off: says so, what it costs and adds, and downloads it
 * in one click (Settings' card shows the progress and can cancel). `empty`: the results are empty, so it says the
 * model may find what keywords did not.
 */
export function SemanticHint({ empty }: { empty: boolean }): React.JSX.Element | null {
  const { state, download } = useSemanticModel();
  const s = state.data;
  if (!s) return null;
  if (s.state === 'downloading')
    return (
      <p className="muted semantic-hint" data-testid="semantic-hint">
        <Sparkles size={13} aria-hidden="true" /> Downloading the semantic model
        {s.percent === null ? '' : ` (${Math.floor(s.percent)}%)`}: searches find what footage looks like once it is
        ready.
      </p>
    );
  if (s.state !== 'off' && s.state !== 'failed') return null;
  const cost = modelCost(s);
  return (
    <div className="callout semantic-hint" role="note" data-testid="semantic-hint">
      <Sparkles size={16} aria-hidden="true" />
      <div>
        <strong>
          {empty ? 'The semantic model may find it.' : 'Semantic search is off: these results match words only.'}
        </strong>
        <div className="muted">
          The optional model finds footage by what it looks like (“a dog on a beach”), beyond words on screen, speech
          and detected objects{cost ? `. It downloads once: ${cost}` : ''}.
          {s.state === 'failed' ? ` The last download failed: ${s.reason}` : ''}
        </div>
      </div>
      <button
        type="button"
        className="button primary"
        onClick={() => download.mutate()}
        disabled={download.isPending}
        data-testid="semantic-hint-download"
      >
        {s.state === 'failed' ? 'Try again' : 'Download model'}
      </button>
    </div>
  );
}
