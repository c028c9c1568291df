import type { ExportFrameRate } from './contract/clips';

/** Frame rates as exact rationals: 29.97 is 30000/1001, 23.976 is 24000/1001, integers stay integers. */
export interface Rate {
  /** Frames per second = num / den. */
  num: number;
  den: number;
  /** Integer timebase of the timecode (30 for 29.97). */
  base: number;
  /** Drop-frame timecode (29.97 and 59.94 only): frame numbers 0 and 1 (0-3 at 59.94) skipped each minute but every tenth. */
  drop: boolean;
}

export function rateOf(fps: number | null): Rate {
  const f = fps && Number.isFinite(fps) && fps > 0 ? fps : 25;
  const base = Math.max(1, Math.round(f));
  if (Math.abs(f - base) < 0.005) return { num: base, den: 1, base, drop: false };
  if (Math.abs(f - (base * 1000) / 1001) < 0.01) return { num: base * 1000, den: 1001, base, drop: false };
  return { num: Math.round(f * 1000), den: 1000, base, drop: false };
}

/** The rate a project setting names. */
export function projectRate(setting: Exclude<ExportFrameRate, 'auto'>): Rate {
  const drop = setting.endsWith('-df');
  return { ...rateOf(Number(setting.replace('-df', ''))), drop };
}

export function sameRate(a: Rate, b: Rate): boolean {
  return a.num * b.den === b.num * a.den;
}

/** "25", "29.97 DF": a rate as an editor reads it. */
export function rateLabel(rate: Rate): string {
  const fps = Math.round((rate.num / rate.den) * 1000) / 1000;
  return `${fps}${rate.drop ? ' DF' : ''}`;
}

/** Seconds -> whole frames at `rate` (nearest frame). */
export function framesOf(seconds: number, rate: Rate): number {
  return Math.round((seconds * rate.num) / rate.den);
}

/** Frames dropped from the count each minute (but every tenth) in drop-frame timecode: 2 at 29.97, 4 at 59.94. */
function droppedPerMinute(rate: Rate): number {
  return rate.drop ? Math.round(rate.base / 15) : 0;
}

/**
 * Whole frames -> timecode HH:MM:SS:FF at the rate's integer timebase; drop-frame timecode is written HH:MM:SS;FF and
 * skips the labels ;00 and ;01 (;00-;03 at 59.94) of each minute not divisible by ten, so it keeps to the clock.
 */
export function timecode(frames: number, rate: Rate): string {
  let f = Math.max(0, Math.round(frames));
  const drop = droppedPerMinute(rate);
  if (drop > 0) {
    const perTenMinutes = rate.base * 600 - drop * 9;
    const perMinute = rate.base * 60 - drop;
    const tens = Math.floor(f / perTenMinutes);
    const rest = f % perTenMinutes;
    f += drop * 9 * tens + (rest > drop ? drop * Math.floor((rest - drop) / perMinute) : 0);
  }
  const ff = f % rate.base;
  const totalSeconds = Math.floor(f / rate.base);
  const ss = totalSeconds % 60;
  const mm = Math.floor(totalSeconds / 60) % 60;
  const hh = Math.floor(totalSeconds / 3600);
  const [h, m, s, fr] = [hh, mm, ss, ff].map((n) => String(n).padStart(2, '0'));
  return `${h}:${m}:${s}${drop > 0 ? ';' : ':'}${fr}`;
}

/** The frame count of the timecode 01:00:00:00 (01:00:00;00 in drop frame: 107892 at 29.97). */
export function oneHour(rate: Rate): number {
  return rate.base * 3600 - droppedPerMinute(rate) * 54;
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

/** An exact rate from ffprobe's "30000/1001" (or a decimal "29.97"), with drop frame as the timecode said. */
export function rateOfFraction(text: string, drop = false): Rate | null {
  const [n, d = '1'] = text.split('/');
  const num = Number(n);
  const den = Number(d);
  if (!Number.isFinite(num) || !Number.isFinite(den) || num <= 0 || den <= 0) return null;
  const rate = rateOf(num / den);
  return { ...rate, drop: drop && rate.den === 1001 && rate.base % 30 === 0 };
}

/**
 * "HH:MM:SS:FF" (or ";"/"." before the frames for drop frame) -> whole frames at `rate`, the inverse of `timecode`;
 * null for text that is no timecode or a frame label the rate cannot have.
 */
export function parseTimecode(text: string, rate: Rate): number | null {
  const m = /^(\d{1,2}):(\d{2}):(\d{2})[:;.,](\d{2,3})$/.exec(text.trim());
  if (!m) return null;
  const [hh, mm, ss, ff] = m.slice(1).map(Number) as [number, number, number, number];
  if (mm > 59 || ss > 59 || ff >= rate.base) return null;
  const drop = droppedPerMinute(rate);
  const totalMinutes = hh * 60 + mm;
  if (drop > 0 && ss === 0 && mm % 10 !== 0 && ff < drop) return null;
  return (hh * 3600 + mm * 60 + ss) * rate.base + ff - drop * (totalMinutes - Math.floor(totalMinutes / 10));
}

/** Whether a timecode's text marks drop frame (";" or "." before the frames, as ffmpeg and cameras write it). */
export function isDropFrameText(text: string): boolean {
  return /[;.,]\d{2,3}$/.test(text.trim());
}

/** The timecode `seconds` into media whose first frame is `startFrame` at `rate` ("num/den"); null for a bad rate. */
export function timecodeAt(startFrame: number, rate: string, drop: boolean, seconds: number): string | null {
  const r = rateOfFraction(rate, drop);
  return r ? timecode(startFrame + Math.round((seconds * r.num) / r.den), r) : null;
}
