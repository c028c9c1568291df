import type { ExportFrameRate } from '../../../shared/contract/clips';
import { AppError } from '../../../shared/errors';
import type { ClipRow } from '../clips-store';
import { projectRate, rateOf, type Rate } from './timecode';

/** The value seen most often (the first seen among equals); null for none. */
function mostCommon<T>(values: T[], key: (v: T) => string): T | null {
  const counts = new Map<string, { value: T; n: number }>();
  for (const v of values) {
    const k = key(v);
    const seen = counts.get(k);
    if (seen) seen.n += 1;
    else counts.set(k, { value: v, n: 1 });
  }
  let best: { value: T; n: number } | null = null;
  for (const c of counts.values()) if (!best || c.n > best.n) best = c;
  return best?.value ?? null;
}

/**
 * The one frame rate of a marker list: the project's when given, else the most common rate of the clips. A list
 * whose clips have no known rate (none cut yet) and no project rate is refused: any rate would be a guess, and a
 * timeline at another rate misreads every timecode.
 */
export function listRate(clips: ClipRow[], setting: ExportFrameRate): Rate {
  if (setting !== 'auto') return projectRate(setting);
  // An empty list has no timecode to misread: its header only.
  if (clips.length === 0) return rateOf(25);
  const known = clips.flatMap((c) => (c.fps !== null && Number.isFinite(c.fps) && c.fps > 0 ? [rateOf(c.fps)] : []));
  const rate = mostCommon(known, (r) => `${r.num}/${r.den}`);
  if (!rate) {
    throw new AppError(
      'bad_request',
      'the frame rate of this list cannot be known: no clip has been cut yet, so none has a known rate. Choose the project frame rate',
    );
  }
  return rate;
}

/** The picture size of a list: the most common size of its clips, else 1920x1080. */
export function listSize(clips: ClipRow[]): { width: number; height: number } {
  const sizes = clips.flatMap((c) => (c.width && c.height ? [{ width: c.width, height: c.height }] : []));
  return mostCommon(sizes, (s) => `${s.width}x${s.height}`) ?? { width: 1920, height: 1080 };
}
