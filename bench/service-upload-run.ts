import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { TestService } from '../test/helpers/service';
import { rssMb, timeBest } from './harness';

const run = promisify(execFile);

/**
 * POST /upload of `file` with curl -F, the way a client sends it; throws unless the service accepted it. Resolves with
 * the new video's number ('' from a receiver that answers no record).
 */
export async function curlUpload(service: Pick<TestService, 'baseUrl' | 'key'>, file: string): Promise<string> {
  const { stdout } = await run(
    'curl',
    ['-sS', '-H', `Authorization: ${service.key}`, '-F', `file=@${file};type=video/mp4`, `${service.baseUrl}/upload`],
    { maxBuffer: 1024 * 1024 },
  );
  if (!stdout.includes('"code":"0000"')) throw new Error(`upload failed: ${stdout}`);
  return /"videoNo":"([^"]+)"/.exec(stdout)?.[1] ?? '';
}

/** Deletes a video through the API (its blob with it), so the next upload meets the disk as the first did. */
export async function deleteVideo(service: Pick<TestService, 'baseUrl' | 'key'>, videoNo: string): Promise<void> {
  const res = await fetch(`${service.baseUrl}/delete_videos`, {
    method: 'POST',
    headers: { authorization: service.key, 'content-type': 'application/json' },
    body: JSON.stringify({ video_nos: [videoNo] }),
  });
  const body = await res.text();
  if (!body.includes(videoNo) || body.includes('not_found":["')) throw new Error(`delete failed: ${body}`);
}

/** `work`'s result and the peak RSS of process `pid` while it ran, in MB (sampled every 50 ms). */
export async function peakRssWhile<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peakMb = await rssMb(pid);
  const sampler = setInterval(() => {
    rssMb(pid).then(
      (mb) => (peakMb = Math.max(peakMb, mb)),
      () => {},
    );
  }, 50);
  try {
    return { result: await work(), peakMb };
  } finally {
    clearInterval(sampler);
  }
}

/** A timed run and what to do after it, untimed (removing what it wrote). */
export interface TurnRun {
  run: () => Promise<unknown>;
  after?: () => Promise<unknown>;
}

/**
 * The best time of each of `runs` over `rounds` rounds, taken in turn (a, b, c, a, b, c...), so that a shared machine's
 * load, which comes and goes, weighs on every one of them alike. Before each, untimed, the previous run's `after` and a
 * `sync`: every run starts with nothing waiting to be written back, since writing 2 GB behind another run's 2 GB of
 * dirty pages is throttled by the kernel (measured here: 5.6 GB/s, then 0.45 GB/s for the next 2 GB).
 */
export async function timeBestInTurns<K extends string>(
  rounds: number,
  runs: Record<K, TurnRun | (() => Promise<unknown>)>,
): Promise<Record<K, number>> {
  const best = Object.fromEntries(Object.keys(runs).map((k) => [k, Infinity])) as Record<K, number>;
  for (let round = 0; round < rounds; round++) {
    for (const [key, entry] of Object.entries(runs) as [K, TurnRun | (() => Promise<unknown>)][]) {
      const { run: timed, after } = typeof entry === 'function' ? { run: entry, after: undefined } : entry;
      await run('sync', []);
      best[key] = Math.min(best[key], await timeBest(1, timed));
      await after?.();
    }
  }
  return best;
}
