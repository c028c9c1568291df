/** Frame rates as exact rationals: 29.97 is 30000/1001, 23.976 is 24000/1001, integers stay integers. */
export interface Rate {
  /** Frames per second = num / den. */
  num: number;
  den: number;
  /** Integer timebase of non-drop-frame timecode (30 for 29.97). */
  base: number;
}

export function rateOf(fps: number | null): Rate {
  const f = fps && Number.isFinite(fps) && fps > 0 ? fps : 25;
  const base = Math.max(1, Math.round(f));
  if (Math.abs(f - base) < 0.005) return { num: base, den: 1, base };
  if (Math.abs(f - (base * 1000) / 1001) < 0.01) return { num: base * 1000, den: 1001, base };
  return { num: Math.round(f * 1000), den: 1000, base };
}

/** Seconds -> whole frames at `rate` (nearest frame). */
export function framesOf(seconds: number, rate: Rate): number {
  return Math.round((seconds * rate.num) / rate.den);
}

/** Whole frames -> non-drop-frame timecode HH:MM:SS:FF at the rate's integer timebase. */
export function timecode(frames: number, rate: Rate): string {
  const f = Math.max(0, Math.round(frames));
  const ff = f % rate.base;
  const totalSeconds = Math.floor(f / rate.base);
  const ss = totalSeconds % 60;
  const mm = Math.floor(totalSeconds / 60) % 60;
  const hh = Math.floor(totalSeconds / 3600);
  return [hh, mm, ss, ff].map((n) => String(n).padStart(2, '0')).join(':');
}

/** FCPXML rational time of whole frames: "N/Ds" (frames x frame duration), "0s" for zero. */
export function rationalTime(frames: number, rate: Rate): string {
  if (frames === 0) return '0s';
  const num = frames * rate.den;
  const den = rate.num;
  const g = gcd(num, den);
  return den / g === 1 ? `${num / g}s` : `${num / g}/${den / g}s`;
}

export function frameDuration(rate: Rate): string {
  const g = gcd(rate.den, rate.num);
  return `${rate.den / g}/${rate.num / g}s`;
}

function gcd(a: number, b: number): number {
  return b === 0 ? Math.abs(a) : gcd(b, a % b);
}
