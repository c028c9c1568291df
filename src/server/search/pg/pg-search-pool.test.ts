import pino from 'pino';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectPoolAnswers } from '../../../../test/helpers/search-pool-answers';
import { skipPostgresTests, startPostgres, type TestPostgres } from '../../../../test/helpers/postgres';
import { seedLibrary, type Seeded } from '../../../../test/helpers/search-engines';
import { openPgSql } from '../../storage/open-pg-sql';
import type { PgSql } from '../../storage/pg-sql';
import { Thesaurus } from '../query/thesaurus';
import { SearchPool } from '../workers/search-pool';
import { pgSearchWorker } from './pg-search-pool';
import { PgSegmentSearch } from './pg-segment-search';

const log = pino({ level: 'silent' });

describe.skipIf(skipPostgresTests)('SearchPool on PostgreSQL', () => {
  let server: TestPostgres;
  let url: string;
  let sql: PgSql;
  let seeded: Seeded;

  beforeAll(async () => {
    server = await startPostgres();
    url = await server.createDatabase();
    sql = await openPgSql(url);
    seeded = await seedLibrary(sql, undefined, 'pool', [
      {
        name: 'harbour.mp4',
        folder: 'F',
        segments: Array.from({ length: 40 }, (_, i) => ({
          caption: `a ${i % 2 ? 'puppy' : 'cat'} near the harbour ${i}`,
          transcript: i % 3 ? 'boats and gulls' : '',
        })),
      },
    ]);
  }, 60_000);
  afterAll(async () => {
    await sql?.close();
    await server?.stop();
  });

  it('answers exactly what PgSegmentSearch answers in this thread, from its workers', async () => {
    const request = { text: 'dog harbor', field: 'all' as const, filter: { accountId: seeded.accountId }, limit: 30 };
    await expectPoolAnswers(
      new SearchPool({ worker: pgSearchWorker(url), workers: 2, log }),
      request,
      seeded.accountId + 1,
      () => new PgSegmentSearch(sql, new Thesaurus()).search(request),
    );
  });
});
