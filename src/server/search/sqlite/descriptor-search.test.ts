import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../../../common/sqlite';
import type { Db } from '../../storage/db';
import { serviceMigrations } from '../../storage/migrations';
import { parseQuery } from '../query/query-text';
import { SearchCache } from './search-cache';
import { searchSegments } from './search-segments';
import type { SegmentHit } from '../segment-types';
import { indexSegment } from './fts-index';
import { Thesaurus } from '../query/thesaurus';

type Labels = { label: string; source: string; score?: number }[];

/** Segments as the indexer stores them: labels JSON in `segments.labels`, their words in the FTS labels column. */
const SEGMENTS: { caption: string; labels: Labels }[] = [
  {
    caption: 'An apple',
    labels: [
      { label: 'apple', source: 'objects:centernet' },
      { label: 'red apple', source: 'colour:object' },
    ],
  },
  {
    // A white car, a red frame and an apple of no named colour: "car red apple" side by side in the label text.
    caption: 'A car and an apple',
    labels: [
      { label: 'white car', source: 'colour:object' },
      { label: 'red', source: 'colour:frame' },
      { label: 'apple', source: 'objects:centernet' },
    ],
  },
  {
    caption: 'Two people',
    labels: [
      { label: 'person', source: 'objects:centernet' },
      { label: 'two people', source: 'people:count' },
      { label: 'close-up', source: 'people:shot' },
    ],
  },
  { caption: 'A person', labels: [{ label: 'person', source: 'objects:centernet' }] },
  { caption: '', labels: [{ label: 'pan', source: 'motion:camera' }] },
  { caption: 'A truck', labels: [{ label: 'truck', source: 'objects:centernet' }] },
  // A blue tenth of a frame (a short label text, so bm25 favours it) and a frame mostly blue among other words.
  { caption: '', labels: [{ label: 'blue', source: 'colour:frame', score: 0.37 }] },
  {
    caption: '',
    labels: [
      { label: 'blue', source: 'colour:frame', score: 1 },
      { label: 'white', source: 'colour:frame', score: 0.5 },
      { label: 'gray', source: 'colour:frame', score: 0.4 },
      { label: 'colorful', source: 'colour:frame', score: 0.6 },
      { label: 'daylight', source: 'colour:frame', score: 0.8 },
    ],
  },
  // A photograph in which nothing moves (a short label text) and a camera held still while people walk past.
  { caption: '', labels: [{ label: 'static', source: 'motion:camera', score: 0.55 }] },
  {
    caption: 'Four people',
    labels: [
      { label: 'static', source: 'motion:camera', score: 0.85 },
      { label: 'green', source: 'colour:frame', score: 0.9 },
      { label: 'person', source: 'objects:centernet' },
      { label: 'wide shot', source: 'people:shot' },
    ],
  },
];

function seed(db: Db): void {
  db.prepare("INSERT INTO accounts (id, name, webhook_secret, created_at) VALUES (1, 'a', 's', 0)").run();
  const folder = Number(
    db.prepare("INSERT INTO folders (account_id, name, created_at) VALUES (1, 'f', 0)").run().lastInsertRowid,
  );
  const videoId = Number(
    db
      .prepare(
        `INSERT INTO videos (video_no, account_id, folder_id, video_name, original_name, status, bucket, content_type, size, sha256, created_at)
         VALUES ('V1', 1, ?, 'a.mp4', 'a.mp4', 'PARSE', 'b', 'video/mp4', 1, 'x', 0)`,
      )
      .run(folder).lastInsertRowid,
  );
  const segment = db.prepare(
    "INSERT INTO segments (video_id, idx, start_time, end_time, caption, transcript, ocr_text, labels) VALUES (?, ?, ?, ?, ?, '', '', ?)",
  );
  db.transaction(() => {
    SEGMENTS.forEach((s, i) => {
      const labels = s.labels.map((l) => ({ score: 0.9, ...l }));
      const id = Number(segment.run(videoId, i, i * 4, i * 4 + 4, s.caption, JSON.stringify(labels)).lastInsertRowid);
      const labelText = labels.map((l) => l.label).join(' ');
      indexSegment(new SearchCache(db), 1, id, {
        caption: s.caption,
        transcript: '',
        ocrText: '',
        labels: labelText,
        names: 'a.mp4',
      });
    });
  })();
}

describe('search over descriptor labels (real SQLite, real WordNet)', () => {
  let db: Db;
  const thesaurus = new Thesaurus();
  const search = (text: string): SegmentHit[] =>
    searchSegments(new SearchCache(db), parseQuery(text, thesaurus), 'all', { accountId: 1 }, 10);
  const at = (hit: SegmentHit | undefined): number => (hit ? hit.start / 4 : -1);

  beforeAll(() => {
    db = openSqlite(':memory:', serviceMigrations);
    seed(db);
  });
  afterAll(() => db.close());

  it('ranks the one label "red apple" above red and an apple apart, and says so', () => {
    const hits = search('a shot of red apples');
    expect(hits.map(at).slice(0, 2)).toEqual([0, 1]);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    expect(hits[0]!.matched).toBe('colour: red apple · seen: apple');
    expect(hits[1]!.matched).toBe('seen: red, apple');
  });

  it('counts a frame colour by its weight: a frame mostly blue ranks above a blue tenth', () => {
    const hits = search('blue');
    expect(hits.map(at)).toEqual([7, 6]);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
  });

  it('matches "2 people" to the count label, and names it', () => {
    const hits = search('2 people');
    expect(at(hits[0])).toBe(2);
    expect(hits[0]!.matched).toBe('people: two people · seen: person');
    expect(hits.map(at)).toContain(3);
  });

  it('names the motion and people descriptors that matched', () => {
    expect(search('clip where the camera pans')[0]?.matched).toBe('motion: pan');
    expect(search('close-up')[0]?.matched).toBe('people: close-up');
  });

  it('finds detector labels through WordNet: "vehicle" -> truck, "footage of pedestrians" -> person', () => {
    const vehicle = search('vehicle');
    expect(at(vehicle[0])).toBe(5);
    expect(vehicle[0]!.matched).toBe('seen: truck');
    // Several people before one: "pedestrians" is plural.
    expect(search('footage of pedestrians').map(at)).toEqual([2, 9, 3]);
  });

  it('counts a camera move by its weight: a camera held still over moving people before a still photograph', () => {
    expect(search('static').map(at)).toEqual([9, 8]);
  });
});
