import { spawn } from 'node:child_process';
import { ffmpegPath } from '../../common/media/tools';
import { reasonFrom } from '../../common/media/ffprobe';

export interface ProxyProgress {
  /** 0-100, from the output time ffmpeg reports against the original's duration. */
  percent: number;
  /** Seconds of the original encoded per second of wall time ("x real time"). */
  speed: number;
  etaSeconds: number | null;
}

const MAX_STDERR = 8192;

/** Reads ffmpeg's `-progress pipe:1` blocks (key=value lines ending in `progress=continue|end`). */
export function progressParser(duration: number, started: number, onProgress: (p: ProxyProgress) => void) {
  let outSeconds = 0;
  let pending = '';
  return (chunk: string, now = Date.now()): void => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const [key, value] = line.trim().split('=', 2);
      if ((key === 'out_time_us' || key === 'out_time_ms') && value && /^\d+$/.test(value))
        outSeconds = Number(value) / 1e6; // both are microseconds (out_time_ms is misnamed)
      if (key !== 'progress') continue;
      const done = Math.min(duration, outSeconds);
      const elapsed = Math.max(0.001, (now - started) / 1000);
      const speed = done / elapsed;
      onProgress({
        percent: value === 'end' ? 100 : Math.min(99.9, (done / duration) * 100),
        speed,
        etaSeconds: value === 'end' ? 0 : speed > 0 ? (duration - done) / speed : null,
      });
    }
  };
}

/** Runs ffmpeg with `args` (from proxyArgs); rejects with ffmpeg's complaint on failure, or the abort reason. */
export function runProxyEncode(
  args: string[],
  o: { duration: number; signal: AbortSignal; onProgress: (p: ProxyProgress) => void; onPid?: (pid: number) => void },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath(), args, { stdio: ['ignore', 'pipe', 'pipe'], signal: o.signal });
    if (child.pid) o.onPid?.(child.pid);
    const parse = progressParser(o.duration, Date.now(), o.onProgress);
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => parse(chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < MAX_STDERR) stderr += chunk;
    });
    child.on('error', (err) => reject(o.signal.aborted ? (o.signal.reason as Error) : err));
    child.on('close', (code) => {
      if (o.signal.aborted) reject(new Error('proxy encode interrupted'));
      else if (code === 0) resolve();
      else
        reject(
          new Error(`ffmpeg could not make the proxy: ${reasonFrom(stderr, args.at(-1) ?? '') || `exit ${code}`}`),
        );
    });
  });
}
