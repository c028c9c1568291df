import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { skipPostgresTests, startPostgres, type TestPostgres } from '../../../../test/helpers/postgres';
import { seedLibrary, type Seeded } from '../../../../test/helpers/search-engines';
import { openPgSql } from '../../storage/open-pg-sql';
import { PgSql, prepared } from '../../storage/pg-sql';
import { parseQuery } from '../query/query-text';
import { searchSegmentsPg } from './pg-segment-search';

/**
 * Statements marked `prepared` (pg-sql.ts) run as named statements on each connection, parsed and planned there once;
 * a search's word counts and its rows are two of them, the same answers either way.
 */

const preparedRow = z.object({ statement: z.string(), runs: z.number() });

describe.skipIf(skipPostgresTests)('prepared statements on PostgreSQL', () => {
  let server: TestPostgres;
  let url: string;
  /** One connection, so what it has prepared is what every statement of the test ran on. */
  let sql: PgSql;
  let seeded: Seeded;

  const preparedOnConnection = async (): Promise<z.infer<typeof preparedRow>[]> =>
    z
      .array(preparedRow)
      .parse(
        await sql.all(
          'SELECT statement, CAST(generic_plans + custom_plans AS INT) AS runs FROM pg_prepared_statements ORDER BY statement',
        ),
      );

  beforeAll(async () => {
    server = await startPostgres();
    url = await server.createDatabase();
    await (await openPgSql(url)).close();
    sql = new PgSql(url, { max: 1, idleTimeoutMillis: 0 });
    seeded = await seedLibrary(sql, undefined, 'prepared', [
      {
        name: 'harbour.mp4',
        folder: 'F',
        segments: Array.from({ length: 30 }, (_, i) => ({
          caption: `a ${i % 2 ? 'puppy' : 'cat'} near the harbour ${i}`,
          transcript: i % 3 ? 'boats and gulls' : 'rain at night',
        })),
      },
    ]);
  }, 60_000);
  afterAll(async () => {
    await sql?.close();
    await server?.stop();
  });

  it('prepares a marked statement once per connection and answers as the unmarked one', async () => {
    const text = 'SELECT CAST(? AS INT) + 1 AS n';
    for (const n of [1, 2, 3]) expect(await sql.get(prepared(text), n)).toEqual(await sql.get(text, n));
    expect((await preparedOnConnection()).filter((p) => p.statement.includes('+ 1 AS n'))).toEqual([
      { statement: `${prepared('SELECT CAST($1 AS INT) + 1 AS n')}`, runs: 3 },
    ]);
  });

  it('keeps at most 64 statements prepared on a connection; the others still answer, unnamed', async () => {
    const fresh = new PgSql(url, { max: 1, idleTimeoutMillis: 0 });
    try {
      for (let i = 0; i < 70; i++) expect(await fresh.get(prepared(`SELECT ${i} AS n`))).toEqual({ n: i });
      for (let i = 0; i < 70; i++) expect(await fresh.get(prepared(`SELECT ${i} AS n`))).toEqual({ n: i });
      const names = z
        .array(z.object({ n: z.number() }))
        .parse(await fresh.all('SELECT CAST(COUNT(*) AS INT) AS n FROM pg_prepared_statements'));
      expect(names[0]!.n).toBe(64);
    } finally {
      await fresh.close();
    }
  });

  it('runs the searches of one shape on the same two prepared statements: word counts and rows', async () => {
    const { accountId } = seeded;
    const searches = ['harbour', 'puppy', 'cat boats', 'rain night'];
    const before = await preparedOnConnection();
    const hits = [];
    for (const text of searches) hits.push(await searchSegmentsPg(sql, parseQuery(text), 'all', { accountId }, 10));
    expect(hits.every((h) => h.length > 0)).toBe(true);
    const added = (await preparedOnConnection()).filter((p) => !before.some((b) => b.statement === p.statement));
    expect(added.map((p) => p.runs)).toEqual([searches.length, searches.length]);
    expect(added.some((p) => p.statement.includes('FROM segment_search_terms t'))).toBe(true);
    expect(added.some((p) => p.statement.includes('JOIN videos v ON v.id = s.video_id'))).toBe(true);
    // Past five runs PostgreSQL may plan them once for any words (a generic plan): the same answers.
    for (let round = 0; round < 3; round++)
      for (const [i, text] of searches.entries())
        expect(await searchSegmentsPg(sql, parseQuery(text), 'all', { accountId }, 10)).toEqual(hits[i]);
  });
});
