import { z } from 'zod';
import type { RemoteDeletePolicy } from '../../shared/contract/settings';
import { describeError } from '../../shared/errors';
import type { LibraryClient } from '../api/client';
import type { EventBus } from '../events';
import type { Logger } from '../log';
import type { Db } from '../store/database';
import { AppSettings } from '../settings';

const candidateSchema = z.object({ video_no: z.string(), deleted_at: z.number().int() });

export interface ReconcileReport {
  deleted: string[];
  notFound: string[];
  error: string | null;
}

/** The remote delete policy, kept in the client database. */
export class DeletePolicy {
  private readonly settings: AppSettings;

  constructor(db: Db) {
    this.settings = new AppSettings(db);
  }

  get(): RemoteDeletePolicy {
    return this.settings.deletePolicy();
  }

  /** Turning `delete` on applies to files deleted from now on, never to the deletions of the past. */
  set(policy: RemoteDeletePolicy, now = Date.now()): void {
    if (policy === 'delete' && this.get() !== 'delete') this.settings.setDeleteSince(now);
    this.settings.setDeletePolicy(policy);
  }

  since(): number {
    return this.settings.deleteSince();
  }

  advance(to: number): void {
    this.settings.setDeleteSince(to);
  }
}

/**
 * With the `delete` policy, a video whose every local file is gone (state `deleted`, no other live file with the same
 * content) is deleted from the library. Derived from the files rows and one watermark: a failure (offline) leaves the
 * watermark where it is, so the next pass (another deletion, the next start) tries again; nothing lives only in memory.
 */
export class RemoteDeleter {
  private readonly policy: DeletePolicy;
  private readonly log: Logger;
  private running: Promise<ReconcileReport> | null = null;
  private again = false;

  constructor(private readonly o: { db: Db; client: () => LibraryClient | undefined; logger: Logger }) {
    this.policy = new DeletePolicy(o.db);
    this.log = o.logger.child({ module: 'remote-delete' });
  }

  /** Video numbers to delete now, oldest deletion first, with the time their last file was deleted. */
  candidates(): { videoNo: string; deletedAt: number }[] {
    const rows = this.o.db
      .prepare(
        `SELECT c.video_no AS video_no, MAX(f.updated_at) AS deleted_at
           FROM files f JOIN contents c ON c.hash = f.hash
          WHERE f.state = 'deleted' AND c.video_no IS NOT NULL AND f.updated_at >= ?
            AND NOT EXISTS (SELECT 1 FROM files g WHERE g.hash = f.hash AND g.state != 'deleted')
          GROUP BY c.video_no ORDER BY deleted_at LIMIT 100`,
      )
      .all(this.policy.since());
    return z
      .array(candidateSchema)
      .parse(rows)
      .map((r) => ({ videoNo: r.video_no, deletedAt: r.deleted_at }));
  }

  /** One pass; concurrent calls share it and ask for one more pass after it. */
  reconcile(): Promise<ReconcileReport> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.pass().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        void this.reconcile();
      }
    });
    return this.running;
  }

  /** Reconciles after each deletion the sync engine reports (coalesced). */
  watch(events: EventBus, delayMs = 500): () => void {
    let timer: NodeJS.Timeout | undefined;
    const off = events.on('sync:file-changed', (e) => {
      if (e.status !== 'deleted' || timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        void this.reconcile();
      }, delayMs);
    });
    return () => {
      off();
      clearTimeout(timer);
    };
  }

  private async pass(): Promise<ReconcileReport> {
    const report: ReconcileReport = { deleted: [], notFound: [], error: null };
    if (this.policy.get() !== 'delete') return report;
    const client = this.o.client();
    const todo = this.candidates();
    if (!client || todo.length === 0) return report;
    try {
      const answer = await client.deleteVideos(todo.map((t) => t.videoNo));
      report.deleted = answer.deleted;
      report.notFound = answer.notFound;
      this.policy.advance(Math.max(...todo.map((t) => t.deletedAt)) + 1);
      this.log.info(
        { deleted: answer.deleted, notFound: answer.notFound },
        'deleted from the library: local files gone',
      );
    } catch (err) {
      report.error = describeError(err);
      this.log.warn(
        { err: report.error, videoNos: todo.map((t) => t.videoNo) },
        'remote delete failed; tried again on the next deletion or start',
      );
    }
    return report;
  }
}
