import type { FileStatus } from '../../../shared/contract/sync';
import { unreachable } from '../../../shared/errors';

export function statusLabel(status: FileStatus): string {
  switch (status) {
    case 'waiting':
      return 'Waiting';
    case 'skipped':
      return 'Rejected';
    case 'queued':
      return 'Queued';
    case 'uploading':
      return 'Uploading';
    case 'indexing':
      return 'Indexing';
    case 'indexed':
      return 'Searchable';
    case 'index_failed':
      return 'Indexing failed';
    case 'failed':
      return 'Failed';
    case 'cancelled':
      return 'Cancelled';
    case 'deleted':
      return 'Deleted locally';
    default:
      throw unreachable(status);
  }
}

export function statusTone(status: FileStatus): 'ok' | 'bad' | 'busy' | 'idle' {
  switch (status) {
    case 'indexed':
      return 'ok';
    case 'skipped':
    case 'failed':
    case 'index_failed':
      return 'bad';
    case 'uploading':
    case 'indexing':
    case 'queued':
    case 'waiting':
      return 'busy';
    case 'cancelled':
    case 'deleted':
      return 'idle';
    default:
      throw unreachable(status);
  }
}

export function StatusBadge({ status }: { status: FileStatus }): React.JSX.Element {
  return (
    <span className={`badge badge-${statusTone(status)}`} data-status={status}>
      {statusLabel(status)}
    </span>
  );
}
