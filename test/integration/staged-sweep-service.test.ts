import Database from 'better-sqlite3';
import { mkdir, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import type { TestService } from '../helpers/service';
import { useService } from '../helpers/use-service';

let service: TestService;

const testService = useService({ config: { indexer: { paused: true } } });
beforeAll(async () => {
  service = testService();
}, 60_000);

const exists = async (path: string): Promise<boolean> => (await stat(path).catch(() => null)) !== null;

it('deletes at start a staged upload a crash left more than an hour ago, and keeps a fresh one', async () => {
  service.createKey('stager', { kind: 'datalake', credits: 1 });
  const db = new Database(join(service.dataDir, 'service.db'), { readonly: true });
  const { id } = z.object({ id: z.number() }).parse(db.prepare("SELECT id FROM accounts WHERE name = 'stager'").get());
  db.close();
  await service.kill();
  // As a process that died between staging an upload and queuing its ingest leaves them: no video row.
  const staging = join(service.dataDir, 'blobs', `reelsync-${id}`, 'datalake-uploads');
  await mkdir(staging, { recursive: true });
  const old = join(staging, 'VI0000000000000000001.bin');
  const fresh = join(staging, 'VI0000000000000000002.bin');
  await writeFile(old, Buffer.alloc(2048, 1));
  await writeFile(fresh, Buffer.alloc(2048, 2));
  const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
  await utimes(old, twoHoursAgo, twoHoursAgo);
  await service.restart();
  await expect.poll(() => exists(old), { timeout: 10_000, interval: 100 }).toBe(false);
  expect(await exists(fresh)).toBe(true);
}, 60_000);
