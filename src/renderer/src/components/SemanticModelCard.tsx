import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Sparkles } from 'lucide-react';
import { semanticStateLine, type SemanticState } from '../../../shared/semantic-state';
import { unreachable } from '../../../shared/errors';
import { bytes as formatBytes, eta, rate } from '../lib/format';
import { call } from '../transport';
import { ProgressBar } from './ProgressBar';
import { ErrorState } from './States';

/** Polled fast while the model downloads or keyframes are being embedded, slowly otherwise. */
function pollMs(s: SemanticState | undefined): number {
  if (s?.state === 'downloading') return 500;
  if (s?.state === 'ready' && s.pendingSegments > 0) return 2000;
  return 15_000;
}

/** Settings: the library service's semantic model (CLIP-class), its state, the Download button and its progress. */
export function SemanticModelCard(): React.JSX.Element {
  const qc = useQueryClient();
  const state = useQuery({
    queryKey: ['semantic'],
    queryFn: () => call('semantic:state', {}),
    refetchInterval: (q) => pollMs(q.state.data),
    retry: false,
  });
  const download = useMutation({
    mutationFn: () => call('semantic:download', {}),
    onSuccess: (s) => qc.setQueryData(['semantic'], s),
  });
  if (state.isError) return <ErrorState title="Semantic search state is not available" error={state.error} />;
  const s = state.data;
  return (
    <ul className="folder-list">
      <li className="folder-item" data-testid="semantic-model">
        <Sparkles size={16} aria-hidden="true" />
        <div className="file-main">
          <div data-testid="semantic-state">{s ? semanticStateLine(s) : 'semantic search: …'}</div>
          {s && <div className="muted">{detail(s)}</div>}
          {s?.state === 'downloading' && <ProgressBar value={s.percent} label="Semantic model download" />}
        </div>
        {s && (s.state === 'off' || s.state === 'failed') && (
          <button
            type="button"
            className="button primary"
            onClick={() => download.mutate()}
            disabled={download.isPending}
          >
            {s.state === 'failed' ? 'Try again' : 'Download model'}
          </button>
        )}
      </li>
      {download.isError && <ErrorState title="The download could not start" error={download.error} />}
    </ul>
  );
}

function detail(s: SemanticState): string {
  switch (s.state) {
    case 'off':
      return `Finds what footage looks like ("a dog on a beach") beyond the words it contains. Downloads ${s.model} once into the library's data folder.`;
    case 'downloading': {
      const speed =
        s.bytesPerSecond && s.totalBytes
          ? ` · ${rate(s.bytesPerSecond)} · ${eta((s.totalBytes - s.receivedBytes) / s.bytesPerSecond)} left`
          : '';
      return `${formatBytes(s.receivedBytes)}${s.totalBytes ? ` of ${formatBytes(s.totalBytes)}` : ''}${speed}${s.file ? ` · ${s.file}` : ''}`;
    }
    case 'ready':
      return `${formatBytes(s.sizeBytes)} · ${s.embeddedSegments} keyframes embedded${s.pendingSegments ? `, ${s.pendingSegments} to go` : ''}`;
    case 'failed':
      return 'Trying again resumes where the download stopped.';
    case 'not-offered':
      return 'This library service has no model slot of its own: how it understands what footage looks like is its own.';
    default:
      throw unreachable(s);
  }
}
