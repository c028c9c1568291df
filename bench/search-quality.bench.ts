import type { ClipItem, UploadedVideo } from '../src/shared/api-types';
import { ensureMedia, ensurePhotoClip, fixturePath } from '../test/fixtures/media';
import { apiClient, waitForStatus } from '../test/helpers/api';
import { startService } from '../test/helpers/service';
import { EVAL_CASES, type EvalMedia } from '../test/search-eval/cases';
import type { Benchmark } from './harness';
import { benchClip } from './titled-clip';

/** Rank (1-based) of the first hit on the expected video overlapping the expected range, or null. */
function rankOf(hits: ClipItem[], videoNo: string, start: number, end: number): number | null {
  const i = hits.findIndex((h) => h.videoNo === videoNo && Number(h.startTime) < end && Number(h.endTime) > start);
  return i < 0 ? null : i + 1;
}

const bench: Benchmark = {
  name: 'search-quality',
  description:
    'recall@5 and MRR of BY_CLIP search over the evaluation set in test/search-eval (real indexing of generated media)',
  async run() {
    await ensureMedia();
    const media: Record<EvalMedia, string> = {
      drawnText: fixturePath('drawnTextMp4'),
      speech: fixturePath('speechMp4'),
      photos: await ensurePhotoClip(),
      phone: fixturePath('phoneH264Mp4'),
      titled: await benchClip(),
    };
    const service = await startService({ credits: 1000 });
    try {
      const api = apiClient(service.baseUrl, service.key);
      const videoNos = {} as Record<EvalMedia, string>;
      for (const [key, file] of Object.entries(media) as [EvalMedia, string][]) {
        const res = await api.upload<UploadedVideo>(file);
        videoNos[key] = res.json.data!.videoNo;
      }
      for (const no of Object.values(videoNos)) await waitForStatus(api, no, 600_000);
      const rows: string[] = [];
      let hitsAt5 = 0;
      let reciprocal = 0;
      for (const c of EVAL_CASES) {
        const res = await api.post<ClipItem[]>('/search', { search_param: c.query, top_k: 20 });
        const rank = rankOf(res.json.data ?? [], videoNos[c.expect.media], c.expect.start, c.expect.end);
        if (rank !== null && rank <= 5) hitsAt5++;
        if (rank !== null) reciprocal += 1 / rank;
        rows.push(`${rank === null ? 'miss' : `#${rank}`.padEnd(4)}  ${c.kind.padEnd(8)} ${c.query}`);
      }
      const n = EVAL_CASES.length;
      return [
        {
          what: `search quality over ${n} queries`,
          lines: [
            `recall@5 ${(hitsAt5 / n).toFixed(3)} (${hitsAt5}/${n})   MRR ${(reciprocal / n).toFixed(3)}`,
            ...rows,
          ],
        },
      ];
    } finally {
      await service.stop();
    }
  },
};

export default bench;
