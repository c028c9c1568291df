import type { ClipItem, UploadedVideo } from '../src/shared/api-types';
import { ensureEvalClip } from '../test/fixtures/eval-media';
import { ensureMedia, ensurePhotoClip, fixturePath } from '../test/fixtures/media';
import { apiClient, waitForStatus } from '../test/helpers/api';
import { startService } from '../test/helpers/service';
import { EVAL_CASES, EVAL_KINDS, type EvalCase, type EvalMedia } from '../test/search-eval/cases';
import type { Benchmark } from './harness';
import { benchClip } from './titled-clip';

/** Rank (1-based) of the first hit overlapping one of the expected answers (video and range), or null. */
function rankOf(hits: ClipItem[], videoNos: Record<EvalMedia, string>, expected: EvalCase['expect']): number | null {
  const answers = [expected, ...(expected.or ?? [])];
  const i = hits.findIndex((h) =>
    answers.some((a) => h.videoNo === videoNos[a.media] && Number(h.startTime) < a.end && Number(h.endTime) > a.start),
  );
  return i < 0 ? null : i + 1;
}

/** recall@5 and MRR of a set of ranks, as one line. */
function figures(ranks: (number | null)[]): string {
  const n = ranks.length;
  const at5 = ranks.filter((r) => r !== null && r <= 5).length;
  const mrr = ranks.reduce<number>((sum, r) => sum + (r === null ? 0 : 1 / r), 0) / (n || 1);
  return `recall@5 ${(at5 / (n || 1)).toFixed(3)} (${at5}/${n})   MRR ${mrr.toFixed(3)}`;
}

const bench: Benchmark = {
  name: 'search-quality',
  description:
    'recall@5 and MRR of BY_CLIP search over the evaluation set in test/search-eval (real indexing of generated media and of real photographs and video from Debian packages), per kind, with the misses',
  async run() {
    await ensureMedia();
    const media: Record<EvalMedia, string> = {
      drawnText: fixturePath('drawnTextMp4'),
      speech: fixturePath('speechMp4'),
      photos: await ensurePhotoClip(),
      phone: fixturePath('phoneH264Mp4'),
      titled: await benchClip(),
      stills: await ensureEvalClip('stills'),
      nature: await ensureEvalClip('nature'),
      camera: await ensureEvalClip('camera'),
      street: await ensureEvalClip('street'),
      cartoon: await ensureEvalClip('cartoon'),
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
      const results: { c: EvalCase; rank: number | null; top: string }[] = [];
      for (const c of EVAL_CASES) {
        const res = await api.post<ClipItem[]>('/search', { search_param: c.query, top_k: 20 });
        const hits = res.json.data ?? [];
        const rank = rankOf(hits, videoNos, c.expect);
        const first = hits[0];
        const top = first ? `${first.videoName} ${first.startTime}-${first.endTime}s` : 'nothing';
        results.push({ c, rank, top });
      }
      const row = (r: (typeof results)[number]): string =>
        `${r.rank === null ? 'miss' : `#${r.rank}`.padEnd(4)}  ${r.c.kind.padEnd(8)} ${r.c.query}`;
      const misses = results.filter((r) => r.rank === null || r.rank > 5);
      return [
        {
          what: `search quality over ${results.length} queries`,
          lines: [
            figures(results.map((r) => r.rank)),
            ...EVAL_KINDS.map((kind) => {
              const ranks = results.filter((r) => r.c.kind === kind).map((r) => r.rank);
              return `  ${kind.padEnd(8)} ${ranks.length ? figures(ranks) : 'no cases'}`;
            }),
            `misses (not in the first 5), with what came first:`,
            ...misses.map((r) => `  ${row(r)}   [first: ${r.top}]`),
            'every case:',
            ...results.map((r) => `  ${row(r)}`),
          ],
        },
      ];
    } finally {
      await service.stop();
    }
  },
};

export default bench;
