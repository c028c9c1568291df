import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface Measurement {
  label: string;
  seconds: number;
  /** Work done, for a throughput figure (bytes, files, video-seconds...). */
  amount?: number;
  unit?: string;
  peakRssMb?: number;
}

export interface Comparison {
  what: string;
  ours: Measurement;
  baseline: Measurement;
  /** Higher is better for us: baseline time / our time. */
  ratio: number;
  goal?: string;
}

/** A measured figure that is not a time (recall, MRR, percentiles), printed beside its baseline when it has one. */
export interface Figure {
  what: string;
  lines: string[];
}

export type BenchResult = Comparison | Figure;

export interface Benchmark {
  name: string;
  description: string;
  run(): Promise<BenchResult[]>;
}

export function isFigure(result: BenchResult): result is Figure {
  return 'lines' in result;
}

/** Best of `repeats` runs of `fn`, in seconds (the least disturbed run on a shared machine). */
export async function timeBest(repeats: number, fn: () => Promise<unknown>): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < repeats; i++) {
    const start = process.hrtime.bigint();
    await fn();
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e9);
  }
  return best;
}

/** Resident memory of a process, in MB (Linux /proc). */
export async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** Runs an external baseline command; resolves with its stdout. */
export async function command(file: string, args: string[]): Promise<string> {
  const { stdout } = await run(file, args, { maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

export function compare(what: string, ours: Measurement, baseline: Measurement, goal?: string): Comparison {
  return { what, ours, baseline, ratio: baseline.seconds / ours.seconds, goal };
}

function rate(m: Measurement): string {
  if (!m.amount) return '';
  const perSecond = m.amount / m.seconds;
  return m.unit === 'bytes'
    ? `${(perSecond / 1024 / 1024).toFixed(1)} MiB/s`
    : `${perSecond.toFixed(1)} ${m.unit ?? ''}/s`;
}

export function formatComparison(c: Comparison): string {
  const line = (m: Measurement): string =>
    `  ${m.label.padEnd(28)} ${m.seconds.toFixed(3).padStart(9)} s  ${rate(m).padStart(14)}${m.peakRssMb ? `  peak RSS ${m.peakRssMb.toFixed(0)} MB` : ''}`;
  return [
    `${c.what}`,
    line(c.ours),
    line(c.baseline),
    `  ratio (baseline time / ours): ${c.ratio.toFixed(2)}x${c.goal ? `   goal: ${c.goal}` : ''}`,
  ].join('\n');
}
