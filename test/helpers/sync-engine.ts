import { join } from 'node:path';
import { LibraryClient } from '../../src/main/api/client';
import { EventBus } from '../../src/main/events';
import { createLogger } from '../../src/main/log';
import { MetadataReader } from '../../src/main/media/exif';
import { openDatabase, type Db } from '../../src/main/store/database';
import type { SyncConfig } from '../../src/main/sync/context';
import { SyncEngine } from '../../src/main/sync/engine';

export interface TestEngine {
  engine: SyncEngine;
  events: EventBus;
  db: Db;
  client: LibraryClient;
  stop(): Promise<void>;
}

/** A real SyncEngine on a client database in `dir`, talking HTTP to `baseUrl`; short timings for tests. */
export async function startEngine(
  dir: string,
  baseUrl: string,
  key: string,
  config: Partial<SyncConfig> = {},
): Promise<TestEngine> {
  const logger = createLogger('test');
  const db = openDatabase(join(dir, 'client.db'));
  const client = new LibraryClient({ baseUrl, key, logger });
  const metadata = new MetadataReader(logger);
  await metadata.start();
  const events = new EventBus();
  const engine = new SyncEngine({
    db,
    client,
    metadata,
    events,
    logger,
    config: { stableMs: 500, pollMinMs: 200, pollMaxMs: 1000, ...config },
    queueTickMs: 200,
    backoff: { baseMs: 100, maxMs: 1000 },
  });
  await engine.start();
  return {
    engine,
    events,
    db,
    client,
    stop: async () => {
      await engine.stop();
      await metadata.stop();
      await client.close();
      db.close();
    },
  };
}
