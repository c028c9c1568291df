/** Human sizes, rates, durations and timecodes for the UI. */
export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

export function rate(bytesPerSecond: number): string {
  return `${bytes(Math.round(bytesPerSecond))}/s`;
}

export function eta(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '—';
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  const m = Math.floor(seconds / 60);
  if (m < 60) return `${m} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** m:ss.t (or h:mm:ss) for a time in seconds. */
export function timecode(seconds: number): string {
  const s = Math.max(0, seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const secText = sec.toFixed(1).padStart(4, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${secText}` : `${m}:${secText}`;
}

/** Whole frames per second used to count frames: 29.97 counts 30 a second (non-drop-frame, as NLEs show it by default). */
export function nominalFps(fps: number | null | undefined): number | null {
  return fps && Number.isFinite(fps) && fps > 0 ? Math.max(1, Math.round(fps)) : null;
}

/** SMPTE timecode HH:MM:SS:FF at `fps`; m:ss.t when the frame rate is unknown. */
export function smpte(seconds: number, fps: number | null | undefined): string {
  const rate = nominalFps(fps);
  if (rate === null) return timecode(seconds);
  const frames = Math.floor(Math.max(0, seconds) * rate + 1e-6);
  const ff = frames % rate;
  const total = Math.floor(frames / rate);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${two(Math.floor(total / 3600))}:${two(Math.floor((total % 3600) / 60))}:${two(total % 60)}:${two(ff)}`;
}

/**
 * A typed time in seconds: SMPTE HH:MM:SS:FF (or ;FF) at `fps`, h:mm:ss.d, m:ss.d or decimal seconds; null when it is none
 * of those (a frame count past the rate, minutes or seconds past 59, or SMPTE with no known frame rate).
 */
export function parseTime(text: string, fps: number | null | undefined): number | null {
  const t = text.trim();
  const rate = nominalFps(fps);
  const tc = /^(\d{1,2}):(\d{2}):(\d{2})[:;](\d{2})$/.exec(t);
  if (tc) {
    const [h, m, s, f] = tc.slice(1).map(Number) as [number, number, number, number];
    if (rate === null || m > 59 || s > 59 || f >= rate) return null;
    return h * 3600 + m * 60 + s + f / rate;
  }
  const clock = /^(?:(\d+):)?(\d{1,2}):(\d{1,2}(?:\.\d+)?)$/.exec(t);
  if (clock) {
    const h = Number(clock[1] ?? 0);
    const m = Number(clock[2]);
    const s = Number(clock[3]);
    if ((clock[1] !== undefined && m > 59) || s >= 60) return null;
    return h * 3600 + m * 60 + s;
  }
  if (/^\d+(?:\.\d*)?$|^\.\d+$/.test(t)) return Number(t);
  return null;
}

export function fileName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] ?? path;
}

export function folderOf(path: string): string {
  const i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return i > 0 ? path.slice(0, i) : path;
}
