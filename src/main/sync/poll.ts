import { unreachable } from '../../shared/errors';
import type { JobRow } from '../jobs/jobs-store';
import type { SyncDeps } from './context';
import type { JobHandler, ClientJobOutcome } from '../jobs/client-job-queue';
import { outcomeOf } from './upload';

/** `poll` jobs (target: content hash): ask get_metadata until PARSE or FAIL, less often the longer indexing takes. */
export function pollHandler(deps: SyncDeps): JobHandler {
  const log = deps.logger.child({ module: 'poll' });
  return {
    kind: 'poll',
    concurrency: deps.config.pollConcurrency,
    maxAttempts: 20,
    async run(job: JobRow, signal: AbortSignal): Promise<ClientJobOutcome> {
      const { store } = deps;
      const hash = job.target;
      const content = store.content(hash);
      if (!content?.video_no) return { type: 'finished' };
      let meta;
      try {
        meta = await deps.client.getMetadata(content.video_no, signal);
      } catch (err) {
        if (signal.aborted) throw err;
        return outcomeOf(err, deps);
      }
      if (meta === null) {
        store.setContentState(hash, 'failed', `the library no longer knows video ${content.video_no}`);
        deps.notify.contentChanged(hash);
        return { type: 'failed', error: 'unknown video' };
      }
      switch (meta.status) {
        case 'PARSE':
          store.setContentProgress(hash, 100);
          store.setContentState(hash, 'indexed');
          log.info({ hash, videoNo: content.video_no }, 'indexed');
          await deps.proxies.cache.indexed(hash);
          deps.notify.contentChanged(hash);
          return { type: 'finished' };
        case 'FAIL':
          store.setContentState(hash, 'index_failed', meta.fail_reason ?? 'indexing failed');
          log.warn({ hash, videoNo: content.video_no, reason: meta.fail_reason }, 'indexing failed');
          await deps.proxies.cache.indexed(hash);
          deps.notify.contentChanged(hash);
          return { type: 'finished' };
        case 'UNPARSE': {
          if (meta.progress !== content.progress) {
            store.setContentProgress(hash, meta.progress);
            deps.notify.contentChanged(hash);
          }
          const age = Date.now() - job.created_at;
          return {
            type: 'wait',
            delayMs: Math.min(deps.config.pollMaxMs, Math.max(deps.config.pollMinMs, Math.round(age / 10))),
          };
        }
        default:
          throw unreachable(meta.status);
      }
    },
  };
}
