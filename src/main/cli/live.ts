import cliProgress from 'cli-progress';
import { basename } from 'node:path';
import type { EventBus } from '../events';
import { formatBytes } from '../sync/validator';

/** Live per-file upload bars (bytes, rate, ETA) and a status line, while `sync` watches. */
export function liveProgress(events: EventBus, out: NodeJS.WriteStream = process.stderr): () => void {
  const multi = new cliProgress.MultiBar(
    {
      format: ' {name} |{bar}| {percentage}% {done}/{size} {rate}/s ETA {eta_formatted}',
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: false,
      stream: out,
      noTTYOutput: !out.isTTY,
      notTTYSchedule: 5000,
    },
    cliProgress.Presets.shades_classic,
  );
  const bars = new Map<number, cliProgress.SingleBar>();
  const offProgress = events.on('sync:progress', (p) => {
    let bar = bars.get(p.fileId);
    const payload = {
      name: basename(p.path).slice(0, 32).padEnd(32),
      done: formatBytes(p.bytes),
      size: formatBytes(p.total),
      rate: formatBytes(p.rate),
    };
    if (!bar) {
      bar = multi.create(p.total, p.bytes, payload);
      bars.set(p.fileId, bar);
    }
    bar.update(p.bytes, payload);
  });
  const offChanged = events.on('sync:file-changed', (f) => {
    const bar = bars.get(f.id);
    if (bar && f.status !== 'uploading' && f.status !== 'queued') {
      bar.stop();
      multi.remove(bar);
      bars.delete(f.id);
    }
    if (f.status === 'indexed' || f.status === 'skipped' || f.status === 'failed' || f.status === 'index_failed') {
      multi.log(`${f.status.padEnd(12)} ${f.path}${f.reason ? `: ${f.reason}` : ''}\n`);
    }
  });
  const offQueue = events.on('sync:queue', (q) => {
    if (q.paused) multi.log(`queue paused: ${q.paused.reason}\n`);
    else multi.log('queue resumed\n');
  });
  return () => {
    offProgress();
    offChanged();
    offQueue();
    multi.stop();
  };
}
