import { unreachable } from '../../shared/errors';
import type { FileView } from '../../shared/contract/sync';

export interface SyncSummary {
  uploaded: FileView[];
  alreadyInLibrary: FileView[];
  skipped: FileView[];
  failed: FileView[];
  pending: FileView[];
}

/** Sorts the files under the synced folders into the summary's groups. Deleted files are left out. */
export function summarize(files: readonly FileView[]): SyncSummary {
  const s: SyncSummary = { uploaded: [], alreadyInLibrary: [], skipped: [], failed: [], pending: [] };
  for (const f of files) {
    switch (f.status) {
      case 'indexed':
        (f.duplicateOf ? s.alreadyInLibrary : s.uploaded).push(f);
        break;
      case 'skipped':
        s.skipped.push(f);
        break;
      case 'failed':
      case 'index_failed':
      case 'cancelled':
        s.failed.push(f);
        break;
      case 'waiting':
      case 'queued':
      case 'uploading':
      case 'indexing':
        s.pending.push(f);
        break;
      case 'deleted':
        break;
      default:
        throw unreachable(f.status);
    }
  }
  return s;
}

export function formatSummary(s: SyncSummary): string {
  const lines = [
    `uploaded: ${s.uploaded.length}`,
    `already in library: ${s.alreadyInLibrary.length}`,
    `skipped: ${s.skipped.length}`,
    ...s.skipped.map((f) => `  ${f.path}: ${f.reason ?? 'skipped'}${withDetails(f)}`),
    `failed: ${s.failed.length}`,
    ...s.failed.map((f) => `  ${f.path}: ${f.status}${f.reason ? `: ${f.reason}` : ''}${withDetails(f)}`),
  ];
  if (s.pending.length > 0)
    lines.push(
      `not finished: ${s.pending.length}`,
      ...s.pending.map((f) => `  ${f.path}: ${f.status}${f.reason ? `: ${f.reason}` : ''}`),
    );
  return `${lines.join('\n')}\n`;
}

/** A terminal has room for the raw cause next to the plain reason: " (moov atom not found)". */
function withDetails(f: FileView): string {
  return f.details ? ` (${f.details})` : '';
}
