export type ProgressCallback = (percent: number, stage: string) => void;

/** Wraps a progress callback so percents only go up, stay in 0..100, and repeated values are not re-sent. */
export function monotonicProgress(callback: ProgressCallback | undefined): ProgressCallback {
  let last = -1;
  let lastStage = '';
  return (percent, stage) => {
    if (!callback) return;
    const clamped = Math.round(Math.min(100, Math.max(0, percent)) * 10) / 10;
    const next = Math.max(clamped, last);
    if (next === last && stage === lastStage) return;
    last = next;
    lastStage = stage;
    callback(next, stage);
  };
}
