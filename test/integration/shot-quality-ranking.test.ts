import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ClipItem, UploadedVideo } from '../../src/shared/api-types';
import { ensureClip, lavfi } from '../fixtures/generated-clips';
import { X264 } from '../fixtures/media';
import { apiClient, waitForStatus, type ApiClient } from '../helpers/api';
import { BLOB_BACKENDS } from '../helpers/service';
import { useService } from '../helpers/use-service';

/**
 * Issue 30 item 3 through the real service: two takes showing the same drawn word match a search for it equally (same
 * words read, same labels: same score, same evidence), and the sharp one ranks above the blurred one, on SQLite and on
 * PostgreSQL, whichever was uploaded first.
 */

const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
const WORD = 'LIGHTHOUSE';

/**
 * A 2 s take of the word on a dark slate, blurred or not; `copy` only changes the file's bytes (its metadata). A blur
 * of 3 px at 1280x720 keeps the word readable and the colour words the same (black, white, gray): a stronger one, or a
 * lighter slate, moves a colour share over its threshold, and the takes would no longer match alike.
 */
const take = (blurred: boolean, copy: string): Promise<string> =>
  ensureClip({
    name: `shot-quality-${blurred ? 'blurred' : 'sharp'}-${copy}`,
    inputs: lavfi('color=c=0x1c2b3a:size=1280x720:rate=25', '-t', '2'),
    args: [
      '-vf',
      `drawtext=fontfile=${FONT}:text='${WORD}':fontcolor=white:fontsize=96:x=(w-text_w)/2:y=(h-text_h)/2` +
        (blurred ? ',gblur=sigma=3' : ''),
      ...X264,
      '-metadata',
      `comment=${copy}`,
    ],
    ext: '.mp4',
  });

const segmentRow = z.object({
  video_no: z.string(),
  ocr_text: z.string(),
  labels: z.string(),
  shot_quality: z.number().nullable(),
});

describe.each(BLOB_BACKENDS)('shot quality breaks ties, on %s', (backend) => {
  const service = useService({ backend, credits: 1000 });
  let api: ApiClient;
  /** In upload order: sharp, blurred, then blurred, sharp (so neither order of upload nor of ids decides). */
  const uploaded: { videoNo: string; sharp: boolean }[] = [];

  beforeAll(async () => {
    api = apiClient(service().baseUrl, service().key);
    for (const [sharp, copy] of [
      [true, 'a'],
      [false, 'a'],
      [false, 'b'],
      [true, 'b'],
    ] as const) {
      const res = await api.upload<UploadedVideo>(await take(!sharp, copy));
      expect(res.status).toBe(200);
      uploaded.push({ videoNo: res.json.data!.videoNo, sharp });
    }
    for (const u of uploaded) await waitForStatus(api, u.videoNo, 120_000);
  }, 300_000);

  it('stores each take its measured quality, the sharp ones higher, with the same words and labels', async () => {
    const rows = await service().withSql(async (sql) =>
      z.array(segmentRow).parse(
        await sql.all(
          `SELECT v.video_no, s.ocr_text, s.labels, s.shot_quality FROM segments s JOIN videos v ON v.id = s.video_id
           ORDER BY s.id`,
        ),
      ),
    );
    expect(rows).toHaveLength(uploaded.length);
    const sharpness = (videoNo: string) => rows.find((r) => r.video_no === videoNo)!.shot_quality;
    const sharp = uploaded.filter((u) => u.sharp).map((u) => sharpness(u.videoNo)!);
    const blurred = uploaded.filter((u) => !u.sharp).map((u) => sharpness(u.videoNo)!);
    expect(Math.min(...sharp)).toBeGreaterThan(Math.max(...blurred));
    // What the search matches and scores on is the same for all four: only the shot sets them apart.
    const words = (r: z.infer<typeof segmentRow>) => ({
      ocr: r.ocr_text,
      labels: (JSON.parse(r.labels) as { label: string }[]).map((l) => l.label).sort(),
    });
    for (const r of rows) expect(words(r)).toEqual(words(rows[0]!));
    expect(rows[0]!.ocr_text.toUpperCase()).toContain(WORD);
  });

  it('ranks the sharp takes above the blurred ones, every score apart', async () => {
    const res = await api.post<ClipItem[]>('/search', { search_param: WORD.toLowerCase(), top_k: 10 });
    expect(res.status).toBe(200);
    const hits = res.json.data!;
    const order = hits.map((h) => uploaded.find((u) => u.videoNo === h.videoNo)?.sharp);
    expect(order).toEqual([true, true, false, false]);
    const scores = hits.map((h) => Number(h.score));
    for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeLessThan(scores[i - 1]!);
  });
});
