import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaptionItem, ClipItem, UploadedVideo } from '../../src/shared/api-types';
import { ensureMedia, fixturePath } from '../fixtures/media';
import { apiClient, waitForStatus, type ApiClient } from '../helpers/api';
import { BLOB_BACKENDS, type TestService } from '../helpers/service';
import { useService } from '../helpers/use-service';
import { clipAt } from '../fixtures/generated-clips';
import { flatColour } from '../fixtures/test-clips';
import { tempDir } from '../helpers/temp';

/** Two seconds of one flat colour: nothing for any analyzer to find. */
function flatClip(file: string, colour: string): Promise<string> {
  return clipAt(flatColour(colour, '640x360'), file);
}

describe.each(BLOB_BACKENDS)('on %s', (backend) => {
  let service: TestService;
  let api: ApiClient;
  let cleanup: () => Promise<void>;
  const videos = { text: '', speech: '', empty: '', named: '' };

  const testService = useService({ backend });
  beforeAll(async () => {
    await ensureMedia();
    const temp = await tempDir('reelsync-relevance-');
    cleanup = temp.cleanup;
    service = testService();
    api = apiClient(service.baseUrl, service.key);
    const upload = async (file: string, filename?: string): Promise<string> =>
      (await api.upload<UploadedVideo>(file, {}, filename ? { filename } : {})).json.data!.videoNo;
    videos.text = await upload(fixturePath('drawnTextMp4'));
    videos.speech = await upload(fixturePath('speechMp4'));
    videos.empty = await upload(await flatClip(join(temp.dir, 'grey.mp4'), 'gray'));
    // Its name says everything the query asks; its picture says nothing.
    videos.named = await upload(
      await flatClip(join(temp.dir, 'flat.mp4'), '0x202830'),
      'harbour-lights-lighthouse-pier.mp4',
    );
    for (const no of Object.values(videos)) expect((await waitForStatus(api, no, 180_000)).status).toBe('PARSE');
  }, 300_000);

  afterAll(async () => {
    await cleanup?.();
  });

  const search = async (search_param: string, extra: Record<string, unknown> = {}): Promise<ClipItem[]> => {
    const res = await api.post<ClipItem[]>('/search', { search_param, top_k: 50, ...extra });
    expect(res.status).toBe(200);
    return res.json.data!;
  };

  describe('search relevance over HTTP', () => {
    it('never matches a shot in which nothing was recognised through the words of its caption', async () => {
      const meta = await api.get<{ status: string }>(`/get_metadata?video_no=${videos.empty}`);
      expect(meta.json.data?.status).toBe('PARSE');
      for (const query of ['people walking', 'people', 'objects', 'speech recognised']) {
        const hits = await search(query);
        expect(
          hits.filter((h) => h.videoNo === videos.empty || h.videoNo === videos.named),
          query,
        ).toEqual([]);
      }
      const captions = await api.post<CaptionItem[]>('/search', {
        search_param: 'people',
        search_type: 'BY_CAPTION',
        top_k: 50,
      });
      expect(captions.json.data?.filter((c) => c.video_no === videos.empty)).toEqual([]);
    });

    it('gives hits of different strength different scores, each with why it matched', async () => {
      const hits = await search('harbour');
      const text = hits.find((h) => h.videoNo === videos.text);
      const speech = hits.find((h) => h.videoNo === videos.speech);
      expect(text?.matched).toBe("on screen: 'HARBOUR LIGHTS'");
      expect(speech?.matched).toMatch(/^speech: '.*harbou?r.*'$/);
      expect(text!.score).not.toBe(speech!.score);
      const contentHits = hits.filter((h) => h.videoNo !== videos.named);
      expect(new Set(contentHits.map((h) => h.score)).size).toBe(contentHits.length);
    });

    it('ranks a hit on the file name alone below every hit on what is seen or said', async () => {
      // The name covers all four words, the picture of the titled clip two of them: content still comes first.
      const hits = await search('harbour lights lighthouse pier');
      const named = hits.findIndex((h) => h.videoNo === videos.named);
      const text = hits.findIndex((h) => h.videoNo === videos.text);
      expect(text).toBeGreaterThanOrEqual(0);
      expect(named).toBeGreaterThan(text);
      expect(hits[named]!.matched).toBe('file name');
      for (const h of hits.slice(named)) expect(h.matched).toBe('file name');
      for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
    });

    it("gives caption hits their keyframe and why they matched (Reelsync's own fields)", async () => {
      const res = await api.post<CaptionItem[]>('/search', {
        search_param: 'harbour lights',
        search_type: 'BY_CAPTION',
      });
      const hit = res.json.data?.find((c) => c.video_no === videos.text);
      expect(hit?.matched).toBe('caption: harbour, lights');
      expect(hit?.keyframe_blob).toMatch(new RegExp(`^keyframes/${videos.text}/\\d+\\.jpg$`));
      const frame = await api.raw(
        'GET',
        `/download?bucket=${hit!.keyframe_bucket!}&blob=${encodeURIComponent(hit!.keyframe_blob!)}`,
      );
      expect(frame.status).toBe(200);
      expect(frame.body.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    });
  });
});
