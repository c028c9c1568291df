import { join } from 'node:path';
import { EventBus } from '../../src/main/events';
import { LibraryFeature } from '../../src/main/library/feature';
import { createLogger } from '../../src/main/log';
import { openDatabase, type Db } from '../../src/main/store/database';
import { startEngine } from './sync-engine';

export interface TestLibrary {
  feature: LibraryFeature;
  events: EventBus;
  db: Db;
  stop(): Promise<void>;
}

/** A real LibraryFeature on the client database `dir/client.db` (the one startEngine uses), short timings for tests. */
export async function startLibrary(
  dir: string,
  service: { baseUrl: string; key: string } | undefined,
  options: {
    thumbnailCacheBytes?: number;
    backoff?: { baseMs: number; maxMs: number };
    downloadAttempts?: number;
    blockedRecheckMs?: number;
  } = {},
): Promise<TestLibrary> {
  const db = openDatabase(join(dir, 'client.db'));
  const events = new EventBus();
  const feature = new LibraryFeature({
    db,
    dataDir: join(dir, 'data'),
    events,
    logger: createLogger('test'),
    service,
    queueTickMs: 100,
    backoff: options.backoff ?? { baseMs: 50, maxMs: 200 },
    downloadAttempts: options.downloadAttempts,
    thumbnailCacheBytes: options.thumbnailCacheBytes,
    blockedRecheckMs: options.blockedRecheckMs,
    probeConnectivity: false,
  });
  await feature.start();
  return {
    feature,
    events,
    db,
    stop: async () => {
      await feature.stop();
      db.close();
    },
  };
}

/**
 * Syncs `folder` with the real sync engine into `dir/client.db` until its (only) file has a videoNo, so the client
 * database knows a local original of that video. Returns the videoNo.
 */
export async function syncOriginal(
  dir: string,
  folder: string,
  service: { baseUrl: string; key: string },
): Promise<string> {
  const t = await startEngine(dir, service.baseUrl, service.key);
  try {
    const uploaded = new Promise<void>((resolve) => {
      const off = t.events.on('sync:file-changed', (f) => {
        if (f.status === 'indexing' || f.status === 'indexed') {
          off();
          resolve();
        }
      });
    });
    await t.engine.addFolder({ path: folder });
    await t.engine.scan();
    await uploaded;
    const row = t.db.prepare('SELECT video_no FROM contents WHERE video_no IS NOT NULL').get() as
      { video_no: string } | undefined;
    if (!row) throw new Error('the sync engine reported an upload but no content has a videoNo');
    return row.video_no;
  } finally {
    await t.stop();
  }
}
