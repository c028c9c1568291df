import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SERVICE_SQL_ENGINES, useSharedDatabase } from '../../../test/helpers/service-sql';
import type { Sql } from '../storage/sql';
import { Collections } from './collections';
import { DlVideos } from './dl-videos';
import { claimSession } from './session-claims';

const log = pino({ level: 'silent' });
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A resumable session's row, as POST /uploads leaves it. */
async function session(sql: Sql): Promise<string> {
  const accountId = z
    .object({ id: z.number() })
    .parse(
      await sql.get("INSERT INTO accounts (name, webhook_secret, created_at) VALUES ('a', 's', 1) RETURNING id"),
    ).id;
  const collection = await new Collections(sql).create(accountId, 'c', false, false);
  const row = await new DlVideos(sql).insert({
    id: 'vid_session',
    accountId,
    collectionId: collection.id,
    status: 'uploading',
    sourceType: 'resumable',
    sourceUrl: null,
    filename: 'a.mp4',
    contentType: null,
    uploadSize: 10,
    fps: 1,
    metadata: {},
    callbackUrl: null,
    idempotencyKey: null,
  });
  return row.id;
}

/** Two API replicas (two connections to one database) receiving requests for one upload session. */
describe.each(SERVICE_SQL_ENGINES)('upload session claims on %s', (engine) => {
  const database = useSharedDatabase(engine);

  it('lets one request in any process hold a session; the next gets it once released', async () => {
    const [one, two] = [await database().connect(), await database().connect()];
    const id = await session(one);
    const held = await claimSession(one, log, id);
    expect(held).not.toBeNull();
    expect(await claimSession(two, log, id)).toBeNull();
    expect(await claimSession(one, log, id)).toBeNull(); // a second request in the same process too
    await held?.release();
    const next = await claimSession(two, log, id);
    expect(next).not.toBeNull();
    await next?.release();
  });

  it('renews a held claim while its request runs; a dead holder lapses and its late release frees nothing', async () => {
    const [one, two] = [await database().connect(), await database().connect()];
    const id = await session(one);
    const held = await claimSession(one, log, id, 90);
    await sleep(300); // past three leases: renewed every 30 ms
    expect(await claimSession(two, log, id, 90)).toBeNull();
    await held?.release();

    const dead = await claimSession(one, log, id, 60_000);
    await one.run('UPDATE dl_videos SET claim_until = 0 WHERE id = ?', id); // its process stopped renewing long ago
    const taken = await claimSession(two, log, id);
    expect(taken).not.toBeNull();
    await dead?.release();
    expect(await claimSession(one, log, id)).toBeNull(); // still the new holder's
    await taken?.release();
  });
});
