import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SERVICE_SQL_ENGINES, useServiceSql } from '../../../test/helpers/service-sql';
import { fileVideo } from '../../../test/helpers/dl-video';
import { tempDir } from '../../../test/helpers/temp';
import { Collections } from './collections';
import { DlVideos } from './dl-videos';
import { removeOrphanUploads } from './upload-sessions';

const idRow = z.object({ id: z.number().int() });

describe.each(SERVICE_SQL_ENGINES)('orphan uploads at start on %s', (engine) => {
  const t = useServiceSql(engine);
  let scratch: { dir: string; cleanup: () => Promise<void> };
  beforeEach(async () => {
    scratch = await tempDir();
  });
  afterEach(async () => scratch.cleanup());

  it('keeps files with a row; on a shared database (PostgreSQL) also those another process may still be writing', async () => {
    const { sql } = t;
    const accountId = idRow.parse(
      await sql.get("INSERT INTO accounts (name, webhook_secret, created_at) VALUES ('a', 's', 1) RETURNING id"),
    ).id;
    const collection = await new Collections(sql).create(accountId, 'c', false, false);
    const videos = new DlVideos(sql);
    await videos.insert(fileVideo('known', accountId, collection.id));
    const uploadDir = scratch.dir;
    for (const name of ['known.bin', 'receiving.bin', 'old.bin']) await writeFile(join(uploadDir, name), 'x');
    await mkdir(join(uploadDir, 'stream-live'));
    const twoHoursAgo = (Date.now() - 2 * 60 * 60 * 1000) / 1000;
    await utimes(join(uploadDir, 'old.bin'), twoHoursAgo, twoHoursAgo);

    const dl = { videos, uploadDir, ctx: { sql, log: pino({ level: 'silent' }) } };
    const removed = await removeOrphanUploads(dl);
    const left = (await readdir(uploadDir)).sort();
    if (engine === 'postgres') {
      expect(removed).toBe(1);
      expect(left).toEqual(['known.bin', 'receiving.bin', 'stream-live']);
    } else {
      expect(removed).toBe(3);
      expect(left).toEqual(['known.bin']);
    }
  });
});
