import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaptionItem, ClipItem, UploadedVideo } from '../../src/shared/api-types';
import { clipAt } from '../fixtures/generated-clips';
import { cameraClip } from '../fixtures/motion-clips';
import { STRIPED_RED_WALL } from '../fixtures/test-clips';
import { apiClient, waitForStatus, type ApiClient } from '../helpers/api';
import type { TestService } from '../helpers/service';
import { useService } from '../helpers/use-service';
import { tempDir } from '../helpers/temp';

/** Three seconds of a red wall with gray stripes (no object, no text): only its colour can find it. */
function redClip(file: string): Promise<string> {
  return clipAt(STRIPED_RED_WALL, file);
}

let service: TestService;
let api: ApiClient;
let cleanup: () => Promise<void>;
const videos = { red: '', pan: '' };

const testService = useService();
beforeAll(async () => {
  const temp = await tempDir('reelsync-descriptors-');
  cleanup = temp.cleanup;
  service = testService();
  api = apiClient(service.baseUrl, service.key);
  const upload = async (file: string): Promise<string> =>
    (await api.upload<UploadedVideo>(file, {})).json.data!.videoNo;
  videos.red = await upload(await redClip(join(temp.dir, 'wall.mp4')));
  videos.pan = await upload(await cameraClip(temp.dir, 'pan'));
  for (const no of Object.values(videos)) expect((await waitForStatus(api, no, 180_000)).status).toBe('PARSE');
}, 300_000);

afterAll(async () => {
  await cleanup?.();
});

const search = async (search_param: string): Promise<ClipItem[]> => {
  const res = await api.post<ClipItem[]>('/search', { search_param, top_k: 50 });
  expect(res.status).toBe(200);
  return res.json.data!;
};

describe('pixel descriptors through the real service', () => {
  it('finds the red wall by "red", and the panning shot by "pan", each not the other', async () => {
    const red = await search('red');
    expect(red.map((h) => h.videoNo)).toContain(videos.red);
    const pan = await search('pan');
    expect(pan.map((h) => h.videoNo)).toEqual([videos.pan]);
    const still = await search('static');
    expect(still.map((h) => h.videoNo)).toContain(videos.red);
    expect(still.map((h) => h.videoNo)).not.toContain(videos.pan);
  });

  it('says why the segment matched, and keeps colours and motion out of captions', async () => {
    const hit = (await search('pan'))[0];
    expect(hit?.matched).toMatch(/pan/);
    // Nothing was detected on the wall: its caption says nothing was recognised, so no caption search finds it.
    const res = await api.post<CaptionItem[]>('/search', { search_param: 'red', search_type: 'BY_CAPTION', top_k: 50 });
    expect(res.json.data?.filter((c) => c.video_no === videos.red)).toEqual([]);
  });
});
