import type { SyncStatus } from '../../shared/contract/sync';
import { unreachable } from '../../shared/errors';

export type TrayState =
  | { kind: 'idle'; searchable: number }
  | { kind: 'syncing'; count: number }
  | { kind: 'paused'; reason: NonNullable<SyncStatus['paused']>['reason'] }
  | { kind: 'error'; message: string };

const BUSY = ['waiting', 'queued', 'uploading', 'indexing'] as const;

/** What the tray shows for a sync status (or the reason there is none). */
export function trayStateOf(status: SyncStatus | null, problem: string | null): TrayState {
  if (!status) return { kind: 'error', message: problem ?? 'no library service is connected' };
  if (status.paused) return { kind: 'paused', reason: status.paused.reason };
  const by = status.byStatus;
  const count = BUSY.reduce((n, k) => n + (by[k] ?? 0), 0);
  if (count > 0) return { kind: 'syncing', count };
  const failed = (by.failed ?? 0) + (by.index_failed ?? 0);
  if (failed > 0) return { kind: 'error', message: `${failed} file${failed === 1 ? '' : 's'} failed` };
  return { kind: 'idle', searchable: by.indexed ?? 0 };
}

export function trayLabel(s: TrayState): string {
  switch (s.kind) {
    case 'idle':
      return `Idle · ${s.searchable} searchable`;
    case 'syncing':
      return `Syncing ${s.count}`;
    case 'paused':
      return s.reason === 'user'
        ? 'Paused'
        : s.reason === 'insufficient-balance'
          ? 'Paused: balance too low'
          : 'Paused: API key refused';
    case 'error':
      return `Error: ${s.message}`;
    default:
      throw unreachable(s);
  }
}

/** The tray dot's colour per state, RGB. */
export function trayColor(s: TrayState): [number, number, number] {
  switch (s.kind) {
    case 'idle':
      return [62, 207, 142];
    case 'syncing':
      return [79, 140, 255];
    case 'paused':
      return [245, 185, 66];
    case 'error':
      return [255, 107, 107];
    default:
      throw unreachable(s);
  }
}

/** A filled, anti-aliased circle as a BGRA bitmap (nativeImage.createFromBitmap): no image files to ship. */
export function dotBitmap(rgb: [number, number, number], size: number): Buffer {
  const out = Buffer.alloc(size * size * 4);
  const c = (size - 1) / 2;
  const r = size * 0.38;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const d = Math.hypot(x - c, y - c);
      const alpha = Math.max(0, Math.min(1, r + 0.5 - d));
      const i = (y * size + x) * 4;
      out[i] = rgb[2];
      out[i + 1] = rgb[1];
      out[i + 2] = rgb[0];
      out[i + 3] = Math.round(alpha * 255);
    }
  }
  return out;
}
