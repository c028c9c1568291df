import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { TestService } from '../test/helpers/service';
import { rssMb, timeBest } from './harness';

const run = promisify(execFile);

/** POST /upload of `file` with curl -F, the way a client sends it; throws unless the service accepted it. */
export async function curlUpload(service: Pick<TestService, 'baseUrl' | 'key'>, file: string): Promise<void> {
  const { stdout } = await run(
    'curl',
    ['-sS', '-H', `Authorization: ${service.key}`, '-F', `file=@${file};type=video/mp4`, `${service.baseUrl}/upload`],
    { maxBuffer: 1024 * 1024 },
  );
  if (!stdout.includes('"code":"0000"')) throw new Error(`upload failed: ${stdout}`);
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

/**
 * The best time of each of `runs` over `rounds` rounds, taken in turn (a, b, c, a, b, c...), so that a shared machine's
 * load, which comes and goes, weighs on every one of them alike.
 */
export async function timeBestInTurns<K extends string>(
  rounds: number,
  runs: Record<K, () => Promise<unknown>>,
): Promise<Record<K, number>> {
  const best = Object.fromEntries(Object.keys(runs).map((k) => [k, Infinity])) as Record<K, number>;
  for (let round = 0; round < rounds; round++) {
    for (const [key, run] of Object.entries(runs) as [K, () => Promise<unknown>][]) {
      best[key] = Math.min(best[key], await timeBest(1, run));
    }
  }
  return best;
}
