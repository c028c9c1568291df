import { readFileSync } from 'node:fs';

/**
 * CPU seconds this process has used (every thread: onnxruntime's, the wasm detectors') plus its finished children
 * (ffmpeg, pocketsphinx), from /proc. Wall time on a machine shared by other jobs measures their load as much as ours;
 * CPU time much less so.
 */
export function cpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime, stime, cutime, cstime: fields 14-17 of proc(5), in clock ticks (100 per second on Linux).
  return fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0) / 100;
}

/**
 * CPU seconds of this process's main thread alone (the analysis thread when run from a bench): the detectors compute
 * there, so on an idle machine it is the critical path of indexing, whatever the other threads do beside it.
 */
export function mainThreadCpuSeconds(): number {
  const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime, stime: fields 14-15 of proc(5).
  return fields.slice(11, 13).reduce((sum, f) => sum + Number(f), 0) / 100;
}
