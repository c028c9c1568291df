import type { FileView } from '../../shared/contract/sync';
import { describeError } from '../../shared/errors';
import { EventBus } from '../events';
import type { Logger } from '../log';
import { MetadataReader } from '../media/exif';
import type { Db } from '../store/database';
import { SyncEngine } from '../sync/engine';
import type { Connection } from './connect';
import { liveProgress } from './live';
import { EXIT } from './options';
import { formatSummary, summarize } from './summary';

export interface SyncCommandOptions {
  folders: string[];
  once: boolean;
  folderId?: number;
  tags: string[];
  stableMs?: number;
}

/** `sync`: add the folders, scan them, and either wait for every file to settle (--once) or keep watching. */
export async function runSync(db: Db, conn: Connection, logger: Logger, o: SyncCommandOptions): Promise<number> {
  const events = new EventBus();
  const metadata = new MetadataReader(logger);
  await metadata.start();
  const engine = new SyncEngine({
    db,
    client: conn.client,
    metadata,
    events,
    logger,
    config: o.stableMs !== undefined ? { stableMs: o.stableMs } : {},
  });
  try {
    const watchIds: number[] = [];
    for (const path of o.folders)
      watchIds.push((await engine.addFolder({ path, folderId: o.folderId, tags: o.tags })).id);
    await engine.start();
    if (o.once) return await once(engine, watchIds);
    return await live(engine, events, watchIds);
  } finally {
    await engine.stop();
    await metadata.stop();
  }
}

async function once(engine: SyncEngine, watchIds: number[]): Promise<number> {
  const report = await engine.scan(watchIds);
  process.stderr.write(
    `scanned ${report.files} files in ${report.folders} folder(s): ${report.new} new, ${report.changed} changed, ${report.unchanged} unchanged\n`,
  );
  const paused = await Promise.race([
    engine.waitForIdle().then(() => null),
    new Promise<string>((resolve) => {
      const check = setInterval(() => {
        const p = engine.queue.paused();
        if (p && p.reason !== 'user') {
          clearInterval(check);
          resolve(p.reason);
        }
      }, 250);
      void engine.waitForIdle().then(() => clearInterval(check));
    }),
  ]);
  const files = filesOf(engine, watchIds);
  const summary = summarize(files);
  process.stdout.write(formatSummary(summary));
  if (paused === 'insufficient-balance') {
    process.stderr.write(
      'the service reports an insufficient balance: the upload queue is paused (run `resume` after recharging)\n',
    );
    return EXIT.balance;
  }
  if (paused === 'unauthorized') {
    process.stderr.write('the service refused the API key: the upload queue is paused\n');
    return EXIT.service;
  }
  return summary.failed.length === 0 && summary.pending.length === 0 ? EXIT.ok : EXIT.failed;
}

async function live(engine: SyncEngine, events: EventBus, watchIds: number[]): Promise<number> {
  const stopBars = liveProgress(events);
  try {
    await engine.watch();
    const report = await engine.scan(watchIds);
    process.stderr.write(`watching ${watchIds.length} folder(s), ${report.files} files; Ctrl-C to stop\n`);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    });
    return EXIT.ok;
  } catch (err) {
    process.stderr.write(`sync failed: ${describeError(err)}\n`);
    return EXIT.failed;
  } finally {
    stopBars();
  }
}

function filesOf(engine: SyncEngine, watchIds: number[]): FileView[] {
  const out: FileView[] = [];
  for (let page = 1; ; page++) {
    const { files } = engine.files(page, 500);
    for (const f of files) {
      const row = engine.store.file(f.id);
      if (row && watchIds.includes(row.watch_id)) out.push(f);
    }
    if (files.length < 500) break;
  }
  return out;
}
