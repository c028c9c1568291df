import { Sparkles } from 'lucide-react';
import { semanticStateLine, type SemanticState } from '../../../shared/semantic-state';
import { unreachable } from '../../../shared/errors';
import { bytes as formatBytes, eta, rate } from '../lib/format';
import { modelCost, useSemanticModel } from '../hooks/useSemanticModel';
import { ProgressBar } from './ProgressBar';
import { PathForm } from './PathForm';
import { ErrorState } from './States';
import './semantic-model-card.css';

/**
 * Settings: the library service's semantic model (CLIP-class), what it costs, Download, its progress and Cancel, and
 * install from a folder or archive for a machine without internet.
 */
export function SemanticModelCard(): React.JSX.Element {
  const { state, download, cancel, install } = useSemanticModel();
  if (state.isError) return <ErrorState title="Semantic search state is not available" error={state.error} />;
  const s = state.data;
  return (
    <ul className="folder-list">
      <li className="folder-item" data-testid="semantic-model">
        <Sparkles size={16} aria-hidden="true" />
        <div className="file-main">
          <div data-testid="semantic-state">{s ? semanticStateLine(s) : 'semantic search: …'}</div>
          {s && <div className="muted">{detail(s)}</div>}
          {s?.state === 'downloading' && (
            <ProgressBar value={s.percent} label={s.from ? 'Semantic model install' : 'Semantic model download'} />
          )}
        </div>
        {s && (s.state === 'off' || s.state === 'failed') && (
          <button
            type="button"
            className="button primary"
            onClick={() => download.mutate()}
            disabled={download.isPending}
            data-testid="semantic-download"
          >
            {s.state === 'failed' ? 'Try again' : 'Download model'}
          </button>
        )}
        {s?.state === 'downloading' && (
          <button
            type="button"
            className="button"
            onClick={() => cancel.mutate()}
            disabled={cancel.isPending}
            data-testid="semantic-cancel"
          >
            {cancel.isPending ? 'Cancelling…' : 'Cancel'}
          </button>
        )}
      </li>
      {s && (s.state === 'off' || s.state === 'failed') && (
        <li className="semantic-install" data-testid="semantic-install">
          <p className="muted">
            No internet here? Bring the model on a drive from another computer: its folder, or a .zip or .tar of it.
            Every file is checked before it is copied.
          </p>
          <PathForm
            label="Model folder or archive"
            name="semantic-install-path"
            placeholder="/Volumes/Drive/clip-vit-base-patch32.zip"
            button="Install from folder"
            pending={install.isPending}
            error={install.error}
            submit={(path) => install.mutateAsync(path)}
            testId="semantic-install"
          />
        </li>
      )}
      {download.isError && <ErrorState title="The download could not start" error={download.error} />}
      {cancel.isError && <ErrorState title="The download could not be cancelled" error={cancel.error} />}
    </ul>
  );
}

function detail(s: SemanticState): string {
  switch (s.state) {
    case 'off': {
      const cost = modelCost(s);
      return `Finds what footage looks like ("a dog on a beach") beyond the words it contains. Downloads ${s.model} once into the library's data folder${cost ? `: ${cost}` : ''}.`;
    }
    case 'downloading': {
      const speed =
        s.bytesPerSecond && s.totalBytes
          ? ` · ${rate(s.bytesPerSecond)} · ${eta((s.totalBytes - s.receivedBytes) / s.bytesPerSecond)} left`
          : '';
      const from = s.from ? ` · from ${s.from}` : '';
      return `${formatBytes(s.receivedBytes)}${s.totalBytes ? ` of ${formatBytes(s.totalBytes)}` : ''}${speed}${s.file ? ` · ${s.file}` : ''}${from}`;
    }
    case 'ready':
      return `${formatBytes(s.sizeBytes)} · ${s.embeddedSegments} keyframes embedded${s.pendingSegments ? `, ${s.pendingSegments} to go` : ''}`;
    case 'failed':
      return 'Trying again resumes where the download stopped. Cancel stops a download and keeps what it fetched. Or install the model from a folder below.';
    case 'not-offered':
      return 'This library service has no model slot of its own: how it understands what footage looks like is its own.';
    default:
      throw unreachable(s);
  }
}
