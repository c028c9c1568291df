import type { ClipItem, UploadedVideo } from '../src/shared/api-types';
import { ensureEvalClip } from '../test/fixtures/eval-media';
import { ensureMedia, ensurePhotoClip, fixturePath } from '../test/fixtures/media';
import { apiClient, waitForStatus } from '../test/helpers/api';
import { startService } from '../test/helpers/service';
import { ABSENT_CASES, EVAL_CASES, EVAL_KINDS, type EvalCase, type EvalMedia } from '../test/search-eval/cases';
import type { Benchmark } from './harness';
import { benchClip } from './titled-clip';

/** Rank (1-based) of the first hit overlapping one of the expected answers (video and range), or null. */
function rankOf(hits: ClipItem[], videoNos: Record<EvalMedia, string>, expected: EvalCase['expect']): number | null {
  const i = hits.findIndex((h) => isAnswer(h, videoNos, expected));
  return i < 0 ? null : i + 1;
}

function isAnswer(hit: ClipItem, videoNos: Record<EvalMedia, string>, expected: EvalCase['expect']): boolean {
  return [expected, ...(expected.or ?? [])].some(
    (a) => hit.videoNo === videoNos[a.media] && Number(hit.startTime) < a.end && Number(hit.endTime) > a.start,
  );
}

/** The level a user sees by default in the app: hits scoring below it are cut. */
const LEVEL = 'medium';

/** precision@5 at the medium level: right hits over hits shown (at most 5), averaged over queries that show any. */
function precisionLine(shown: { right: number; total: number }[]): string {
  const answered = shown.filter((s) => s.total > 0);
  const mean = answered.reduce((sum, s) => sum + s.right / s.total, 0) / (answered.length || 1);
  return `precision@5 (${LEVEL}) ${mean.toFixed(3)} over ${answered.length}/${shown.length} queries that show any hit`;
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
    'recall@5, MRR and precision@5 at the medium level of BY_CLIP search, and hits for queries whose answer is absent, over the evaluation set in test/search-eval (real indexing of generated media and of real photographs and video from Debian packages), per kind, with the misses',
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
    const service = await startService({ credits: 100_000 });
    try {
      const api = apiClient(service.baseUrl, service.key);
      const videoNos = {} as Record<EvalMedia, string>;
      for (const [key, file] of Object.entries(media) as [EvalMedia, string][]) {
        const res = await api.upload<UploadedVideo>(file);
        videoNos[key] = res.json.data!.videoNo;
      }
      for (const no of Object.values(videoNos)) await waitForStatus(api, no, 600_000);
      // A refused search (credits spent, bad parameter) would read as "no hit": stop instead.
      const search = async (query: string, extra: object = {}): Promise<ClipItem[]> => {
        const ask = () => api.post<ClipItem[]>('/search', { search_param: query, top_k: 20, ...extra });
        let res = await ask();
        // The service's rate limit answers 429 to a burst of searches: wait and ask again.
        for (let tries = 0; res.status === 429 && tries < 60; tries++) {
          await new Promise((done) => setTimeout(done, 1000));
          res = await ask();
        }
        if (res.status !== 200 || !res.json.data)
          throw new Error(`search "${query}" answered ${res.status}: ${JSON.stringify(res.json).slice(0, 200)}`);
        return res.json.data;
      };
      const results: { c: EvalCase; rank: number | null; top: string; shown: { right: number; total: number } }[] = [];
      for (const c of EVAL_CASES) {
        const hits = await search(c.query);
        const rank = rankOf(hits, videoNos, c.expect);
        const first = hits[0];
        const top = first ? `${first.videoName} ${first.startTime}-${first.endTime}s` : 'nothing';
        const level = (await search(c.query, { filtering_level: LEVEL, top_k: 5 })).slice(0, 5);
        const shown = { right: level.filter((h) => isAnswer(h, videoNos, c.expect)).length, total: level.length };
        results.push({ c, rank, top, shown });
      }
      const absent: { query: string; kind: string; hits: ClipItem[] }[] = [];
      for (const a of ABSENT_CASES) absent.push({ ...a, hits: await search(a.query, { filtering_level: LEVEL }) });
      const leaks = absent.filter((a) => a.hits.length > 0);
      const row = (r: (typeof results)[number]): string =>
        `${r.rank === null ? 'miss' : `#${r.rank}`.padEnd(4)}  ${r.c.kind.padEnd(8)} ${r.c.query}   (${LEVEL}: ${r.shown.right}/${r.shown.total} right)`;
      const misses = results.filter((r) => r.rank === null || r.rank > 5);
      return [
        {
          what: `search quality over ${results.length} queries`,
          lines: [
            `${figures(results.map((r) => r.rank))}   ${precisionLine(results.map((r) => r.shown))}`,
            `absent answers: ${leaks.length}/${absent.length} queries return something at ${LEVEL} (goal 0)`,
            ...EVAL_KINDS.map((kind) => {
              const of = results.filter((r) => r.c.kind === kind);
              const gone = absent.filter((a) => a.kind === kind);
              const leaked = gone.filter((a) => a.hits.length > 0).length;
              return `  ${kind.padEnd(8)} ${of.length ? `${figures(of.map((r) => r.rank))}   ${precisionLine(of.map((r) => r.shown))}` : 'no cases'}${gone.length ? `   absent ${leaked}/${gone.length} answered` : ''}`;
            }),
            'absent answers that returned something:',
            ...leaks.map(
              (a) =>
                `  ${a.kind.padEnd(8)} ${a.query}: ${a.hits
                  .slice(0, 3)
                  .map((h) => `${h.videoName} ${h.startTime}-${h.endTime}s`)
                  .join(', ')}${a.hits.length > 3 ? ` (+${a.hits.length - 3})` : ''}`,
            ),
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
