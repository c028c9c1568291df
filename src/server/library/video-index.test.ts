import { describe, expect, it } from 'vitest';
import { newAccount, newVideo } from '../../../test/helpers/library-rows';
import { SERVICE_SQL_ENGINES, useServiceSql } from '../../../test/helpers/service-sql';
import { Folders } from './folders';
import { VideoIndex } from './video-index';
import { Videos } from './videos';

describe.each(SERVICE_SQL_ENGINES)('VideoIndex on %s', (engine) => {
  const t = useServiceSql(engine);

  /** A video of three segments [0,5) [5,10) [10,10] (an instant one), speech in the first two, two faces in the first. */
  async function indexed() {
    const { sql } = t;
    const accountId = await newAccount(sql);
    const folderId = await new Folders(sql).defaultFolderId(accountId);
    const video = await new Videos(sql).insert(newVideo(accountId, folderId));
    const segments: [number, number, number, string][] = [
      [0, 0, 5, 'hello there'],
      [1, 5, 10, 'general kenobi'],
      [2, 10, 10, ''],
    ];
    for (const [idx, start, end, transcript] of segments)
      await sql.run(
        `INSERT INTO segments (video_id, idx, start_time, end_time, caption, transcript, labels, keyframe_blob)
         VALUES (?, ?, ?, ?, 'a caption', ?, ?, ?)`,
        video.id,
        idx,
        start,
        end,
        transcript,
        JSON.stringify([{ label: 'person', score: 0.9 }]),
        idx === 0 ? 'keyframes/v/0.jpg' : null,
      );
    for (let i = 0; i < 2; i++)
      await sql.run(
        "INSERT INTO faces (video_id, segment_idx, descriptor, box, score) VALUES (?, 0, ?, '{}', 0.8)",
        video.id,
        new Uint8Array([i]),
      );
    const words: [string, number, number][] = [
      ['hello', 0.5, 1],
      ['there', 1, 1.5],
      ['general', 6, 7],
    ];
    for (const [i, [word, start, end]] of words.entries())
      await sql.run(
        'INSERT INTO transcript_words (video_id, idx, word, start_time, end_time) VALUES (?, ?, ?, ?, ?)',
        video.id,
        i,
        word,
        start,
        end,
      );
    return video.id;
  }

  it('reads the transcript lines in segment order, leaving out segments without speech', async () => {
    const videoId = await indexed();
    expect(await new VideoIndex(t.sql).transcript(videoId)).toEqual([
      { transcript: 'hello there', start_time: 0, end_time: 5 },
      { transcript: 'general kenobi', start_time: 5, end_time: 10 },
    ]);
  });

  it('reads the segments and words overlapping a slice, with the faces counted per segment', async () => {
    const videoId = await indexed();
    const index = new VideoIndex(t.sql);
    const all = await index.segmentsIn(videoId, 0, 20);
    expect(all.map((s) => [s.index, s.faces, s.keyframe_blob])).toEqual([
      [0, 2, 'keyframes/v/0.jpg'],
      [1, 0, null],
      [2, 0, null],
    ]);
    expect(all[0]?.labels).toEqual([{ label: 'person', score: 0.9 }]);
    expect((await index.segmentsIn(videoId, 5, 10)).map((s) => s.index)).toEqual([1]);
    expect((await index.segmentsIn(videoId, 10, 11)).map((s) => s.index)).toEqual([2]);
    expect((await index.wordsIn(videoId, 0.9, 6.5)).map((w) => w.word)).toEqual(['hello', 'there', 'general']);
    expect(await index.wordsIn(videoId, 2, 5)).toEqual([]);
  });
});
