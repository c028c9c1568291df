import type { ServiceContext } from '../context';
import { INDEX_RULES_VERSION } from '../indexer/index-rules';
import { countOutdated, pendingReindexes, queueOutdated } from '../library/outdated-videos';
import type { JobOutcome } from '../../shared/job-outcome';
import type { JobRow } from './job-queue';

/** Re-index jobs queued at a time (in every process together): the rest of the outdated library waits its turn. */
export const REINDEX_BATCH = 4;

/**
 * Keeps up to REINDEX_BATCH re-index jobs queued while outdated videos remain (indexer.reindexOutdated): at start and
 * whenever one ends, from any number of worker processes at once. Logs what it finds at start and a summary of what
 * this process re-indexed once nothing is left to queue.
 */
export class OutdatedSweep {
  private reindexed = 0;
  private failed = 0;
  private busy: Promise<void> | null = null;
  private again = false;

  constructor(private readonly ctx: ServiceContext) {}

  private get enabled(): boolean {
    return this.ctx.config.indexer.reindexOutdated;
  }

  async start(): Promise<void> {
    if (!this.enabled) return;
    const counts = await countOutdated(this.ctx.sql);
    if (counts.outdated > counts.failed + counts.withoutOriginal)
      this.ctx.log.info(
        { rules: INDEX_RULES_VERSION, ...counts },
        'videos indexed under older index rules: re-indexing them in the background, behind new uploads',
      );
    await this.topUp();
  }

  /** The queue's onSettled hook for re-index jobs. */
  readonly settled = (_job: JobRow, outcome: JobOutcome): void => {
    if (outcome.type === 'finished') this.reindexed += 1;
    else this.failed += 1;
    if (!this.enabled) return;
    this.topUp().catch((err: unknown) => this.ctx.log.error({ err }, 'could not queue outdated videos to re-index'));
  };

  /** One top-up at a time; a call during one runs it again after. */
  private async topUp(): Promise<void> {
    if (this.busy) {
      this.again = true;
      return this.busy;
    }
    this.busy = (async () => {
      do {
        this.again = false;
        await this.topUpOnce();
      } while (this.again);
    })().finally(() => (this.busy = null));
    return this.busy;
  }

  private async topUpOnce(): Promise<void> {
    const pending = await pendingReindexes(this.ctx.sql);
    const { sql, jobs, config } = this.ctx;
    const enqueue = jobs.enqueueOnce.bind(jobs);
    const room = REINDEX_BATCH - pending;
    const queued = room > 0 ? await queueOutdated(sql, enqueue, room, config.indexer.maxAttempts) : 0;
    if (pending + queued > 0 || this.reindexed + this.failed === 0) return;
    const left = await countOutdated(this.ctx.sql);
    this.ctx.log.info(
      {
        rules: INDEX_RULES_VERSION,
        reindexed: this.reindexed,
        failed: this.failed,
        leftWithoutOriginal: left.withoutOriginal,
        leftFailed: left.failed,
      },
      'outdated videos re-indexed',
    );
    this.reindexed = 0;
    this.failed = 0;
  }
}
