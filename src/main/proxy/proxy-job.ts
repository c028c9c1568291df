import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { describeError } from '../../shared/errors';
import type { ClientJobOutcome, JobHandler } from '../jobs/client-job-queue';
import type { JobRow } from '../jobs/jobs-store';
import type { SyncDeps } from '../sync/context';
import { sha256File } from '../sync/hasher';
import { pickSource } from '../sync/upload';
import { ENCODERS, type EncoderSpec } from './encoders';
import { runProxyEncode } from './make-proxy';
import { probeOriginal } from '../media/original-probe';
import { AUDIO_BPS, proxyArgs, videoBitrate } from './proxy-args';
import type { ProxyCache } from './proxy-cache';
import type { ProxySettings } from './proxy-settings';
import type { ProxyStore } from './proxy-store';

export interface ProxyDeps {
  store: ProxyStore;
  cache: ProxyCache;
  settings: ProxySettings;
  /** The H.264 encoder to use (hardware when one works here, else libx264). */
  encoder: () => Promise<EncoderSpec>;
  concurrency: number;
}

const CACHE_FULL_RETRY_MS = 15_000;
const PROGRESS_EVERY_MS = 500;

/** `<stem>.mp4`: the library shows the proxy under the camera original's name. */
export function proxyFileName(originalPath: string): string {
  const name = basename(originalPath);
  return `${name.slice(0, name.length - extname(name).length) || name}.mp4`;
}

/**
 * `proxy` jobs (target: the original's content hash): make the H.264 search proxy of a camera original the library
 * refuses into the cache, then queue its upload. A run always starts from nothing (a partial output left by a crash,
 * a quit or a pause is deleted first), so resuming is restarting that one file.
 */
export function proxyHandler(deps: SyncDeps): JobHandler {
  const log = deps.logger.child({ module: 'proxy' });
  const { proxies } = deps;
  return {
    kind: 'proxy',
    concurrency: proxies.concurrency,
    maxAttempts: 3,
    async run(job: JobRow, signal: AbortSignal): Promise<ClientJobOutcome> {
      const hash = job.target;
      const content = deps.store.content(hash);
      if (!content || content.state === 'cancelled' || content.video_no) return { type: 'finished' };
      const existing = proxies.store.get(hash);
      if (existing?.state === 'ready' && (await stat(existing.path).catch(() => null))?.size === existing.size) {
        deps.jobs.enqueue('upload', hash, 0);
        deps.wake();
        return { type: 'finished' };
      }
      const source = await pickSource(deps.store.filesWithHash(hash));
      if (!source) {
        deps.store.setContentState(hash, 'failed', 'no local file with this content is left to make a proxy from');
        deps.notify.contentChanged(hash);
        return { type: 'failed', error: 'no local copy' };
      }
      const original = await probeOriginal(source.path, signal);
      const { width } = proxies.settings.get();
      const estimate =
        ((videoBitrate(original.duration, width, original.audio) + (original.audio ? AUDIO_BPS : 0)) *
          original.duration) /
        8;
      const full = await proxies.cache.makeRoom(estimate);
      if (full) {
        deps.store.setContentState(hash, 'queued', full);
        deps.notify.contentChanged(hash);
        return { type: 'wait', delayMs: CACHE_FULL_RETRY_MS };
      }
      // A hardware encoder that failed on this file once gets no second chance: libx264 takes over.
      const encoder = job.attempts > 1 ? ENCODERS.libx264 : await proxies.encoder();
      const folder = proxies.cache.folderOf(hash);
      const output = join(folder, proxyFileName(source.path));
      const partial = join(folder, `.partial-${proxyFileName(source.path)}`);
      await rm(folder, { recursive: true, force: true });
      await mkdir(folder, { recursive: true });
      proxies.store.begin(hash, output, width, encoder.name);
      deps.store.setContentState(hash, 'queued', 'making a search proxy');
      deps.notify.contentChanged(hash);
      const jlog = log.child({ hash, jobId: job.id, encoder: encoder.name, path: source.path });
      const started = Date.now();
      let lastSaved = 0;
      try {
        await runProxyEncode(proxyArgs({ input: source.path, output: partial, original, width, encoder }), {
          duration: original.duration,
          signal,
          onProgress: (p) => {
            deps.notify.proxyProgress({ fileId: source.id, path: source.path, hash, encoder: encoder.name, ...p });
            if (Date.now() - lastSaved < PROGRESS_EVERY_MS && p.percent < 100) return;
            lastSaved = Date.now();
            proxies.store.progress(hash, p.percent);
          },
        });
        await rename(partial, output);
        const size = (await stat(output)).size;
        proxies.store.ready(hash, size, await sha256File(output, { signal }));
        const seconds = (Date.now() - started) / 1000;
        jlog.info({ size, seconds, speed: original.duration / seconds }, 'proxy made');
      } catch (err) {
        await rm(folder, { recursive: true, force: true });
        if (signal.aborted) throw err;
        const reason = describeError(err);
        proxies.store.failed(hash, reason);
        if (job.attempts >= 3) deps.store.setContentState(hash, 'failed', reason);
        deps.notify.contentChanged(hash);
        jlog.warn({ err: reason }, 'proxy failed');
        return { type: 'retry', error: reason };
      }
      deps.jobs.enqueue('upload', hash, 0);
      deps.notify.contentChanged(hash);
      deps.wake();
      return { type: 'finished' };
    },
  };
}
