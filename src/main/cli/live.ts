import cliProgress from 'cli-progress';
import { basename } from 'node:path';
import type { EventBus } from '../events';
import { formatBytes } from '../sync/validator';

/** Live per-file proxy bars (percent, x real time, ETA), upload bars (bytes, rate, ETA) and a status line, while `sync` watches. */
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
  // Proxy bars count percent (0-100); speed is x real time. Keyed apart from upload bars: a file has one of each.
  const proxyBars = new Map<number, cliProgress.SingleBar>();
  const offProxy = events.on('sync:proxy-progress', (p) => {
    const payload = {
      name: `proxy ${basename(p.path)}`.slice(0, 32).padEnd(32),
      done: `${p.percent.toFixed(0)}%`,
      size: `${p.encoder}`,
      rate: `${p.speed.toFixed(1)}x`,
    };
    let bar = proxyBars.get(p.fileId);
    if (!bar) {
      bar = multi.create(100, p.percent, payload, {
        format: ' {name} |{bar}| {percentage}% {rate} real time ({size}) ETA {eta_formatted}',
      });
      proxyBars.set(p.fileId, bar);
    }
    bar.update(p.percent, payload);
    if (p.percent >= 100) {
      bar.stop();
      multi.remove(bar);
      proxyBars.delete(p.fileId);
    }
  });
  const offChanged = events.on('sync:file-changed', (f) => {
    const bar = bars.get(f.id);
    if (bar && f.status !== 'uploading' && f.status !== 'queued') {
      bar.stop();
      multi.remove(bar);
      bars.delete(f.id);
    }
    const proxyBar = proxyBars.get(f.id);
    if (proxyBar && f.status !== 'queued') {
      proxyBar.stop();
      multi.remove(proxyBar);
      proxyBars.delete(f.id);
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
    offProxy();
    offChanged();
    offQueue();
    multi.stop();
  };
}
