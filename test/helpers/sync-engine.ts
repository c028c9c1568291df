import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { FileStatus } from '../../src/shared/contract/sync';
import { LibraryClient } from '../../src/main/api/client';
import { EventBus } from '../../src/main/events';
import { createLogger } from '../../src/main/log';
import { MetadataReader } from '../../src/main/media/exif';
import { openDatabase, type Db } from '../../src/main/store/database';
import type { SyncConfig } from '../../src/main/sync/context';
import { SyncEngine } from '../../src/main/sync/engine';
import { startService, type TestService } from './service';
import { tempDir } from './temp';

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

export interface SyncSuite {
  /** The service every engine of the file talks to (100 credits). */
  readonly service: TestService;
  /** The file's temporary folder: footage and client databases go under it. */
  readonly dir: string;
  /** A real engine on the client database in `<dir>/<name>`, talking to the suite's service. */
  engine(name: string, config?: Partial<SyncConfig>): Promise<TestEngine>;
}

/** The setup every sync test file shares: one service and one temporary folder for the file, gone after it. */
export function syncSuite(prefix: string): SyncSuite {
  let service: TestService | undefined;
  let dir: string | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    service = await startService({ credits: 100 });
    ({ dir, cleanup } = await tempDir(prefix));
  });
  afterAll(async () => {
    await service?.stop();
    await cleanup?.();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('syncSuite: used outside a test');
    return value;
  };
  return {
    get service() {
      return ready(service);
    },
    get dir() {
      return ready(dir);
    },
    engine: (name, config = {}) => {
      const s = ready(service);
      return startEngine(join(ready(dir), name), s.baseUrl, s.key, config);
    },
  };
}

/** Resolves when `path` reaches `wanted` (and `accept` agrees), as the engine announces it. */
export function untilFileStatus(
  events: EventBus,
  path: string,
  wanted: FileStatus,
  accept: (file: { id: number }) => boolean = () => true,
): Promise<{ id: number }> {
  return new Promise((resolve) => {
    const off = events.on('sync:file-changed', (f) => {
      if (f.path === path && f.status === wanted && accept(f)) {
        off();
        resolve(f);
      }
    });
  });
}
