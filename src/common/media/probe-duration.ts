import { ffprobe, ProbeError, type ProbeResult } from './ffprobe';
import type { InputKind } from './media-input';
import { judgeTimeline, measureTimeline } from './timeline';

/**
 * ffprobe plus a demux pass over every packet (timeline.ts): the result's duration is the one indexing is priced and
 * bounded by, never shorter than what ffmpeg will decode. Throws a refused ProbeError when the timing cannot be trusted.
 */
export async function probeWithTrustedDuration(
  file: string,
  kind: InputKind,
  signal?: AbortSignal,
): Promise<ProbeResult & { durationSeconds: number }> {
  const probe = await ffprobe(file, { kind, signal });
  const streams = await measureTimeline(file, kind, signal).catch((err: unknown) => {
    if (signal?.aborted) throw err;
    throw new ProbeError(err instanceof Error ? err.message : String(err), { cause: err });
  });
  const verdict = judgeTimeline(probe.durationSeconds, streams);
  if (!verdict.ok) throw new ProbeError(verdict.reason, { refused: true });
  return { ...probe, durationSeconds: verdict.seconds };
}
