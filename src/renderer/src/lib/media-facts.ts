import { codecDisplayName } from '../../../shared/codec-names';
/** Short labels for the library's columns; an em dash where the fact is not known (yet). */
const NONE = '—';

export function durationLabel(seconds: number | null): string {
  if (seconds === null) return NONE;
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

export function resolutionLabel(width: number | null, height: number | null): string {
  return width && height ? `${width}×${height}` : NONE;
}

export function fpsLabel(fps: number | null): string {
  if (fps === null || fps <= 0) return NONE;
  return Number.isInteger(Math.round(fps * 100) / 100) ? String(Math.round(fps)) : fps.toFixed(2);
}

export function codecLabel(codec: string | null): string {
  if (codec === null) return NONE;
  return codecDisplayName(codec);
}

/** The camera's date as a local date and time when it parses, else as written. */
export function takenLabel(takenAt: string | null): string {
  if (!takenAt) return NONE;
  const t = Date.parse(takenAt);
  return Number.isNaN(t) ? takenAt : new Date(t).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function textOrNone(text: string | null): string {
  return text ?? NONE;
}
