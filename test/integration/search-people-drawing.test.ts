import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClipItem, UploadedVideo } from '../../src/shared/api-types';
import { photoPath } from '../fixtures/media';
import { apiClient, waitForStatus, type ApiClient } from '../helpers/api';
import { INKED_POSTER } from '../helpers/still-frame';
import type { TestService } from '../helpers/service';
import { useService } from '../helpers/use-service';
import { tempDir } from '../helpers/temp';

const run = promisify(execFile);
const SHOT_SECONDS = 3;
const H264 = '-c:v libx264 -preset veryfast -pix_fmt yuv420p'.split(' ');

/**
 * Two shots of 3 s at 1280x720, cut hard: the astronaut beside the cameraman (python3-skimage's photos), then the
 * motorcycle photo rendered as a drawing by ffmpeg (posterized colours, inked edges).
 */
async function peopleThenDrawing(file: string): Promise<string> {
  const still = ['-loop', '1', '-framerate', '25', '-t', String(SHOT_SECONDS), '-i'];
  await run('ffmpeg', [
    '-v',
    'error',
    ...still,
    await photoPath('astronaut'),
    ...still,
    await photoPath('camera'),
    ...still,
    await photoPath('motorcycle'),
    '-filter_complex',
    '[0]scale=640:640,setsar=1,format=yuv420p[a];[1]scale=640:640,setsar=1,format=yuv420p[b];' +
      '[a][b]hstack,pad=1280:720:0:40[pair];' +
      `[2]scale=1280:720:force_original_aspect_ratio=increase,crop=1280:720,setsar=1,${INKED_POSTER},format=yuv420p[drawn];` +
      '[pair][drawn]concat=n=2:v=1:a=0[out]',
    ...['-map', '[out]', ...H264, '-y', file],
  ]);
  return file;
}

let service: TestService;
let api: ApiClient;
let cleanup: () => Promise<void>;
let videoNo = '';

const testService = useService();
beforeAll(async () => {
  const temp = await tempDir('reelsync-people-drawing-');
  cleanup = temp.cleanup;
  const clip = await peopleThenDrawing(join(temp.dir, 'people-then-drawing.mp4'));
  service = testService();
  api = apiClient(service.baseUrl, service.key);
  videoNo = (await api.upload<UploadedVideo>(clip)).json.data!.videoNo;
  expect((await waitForStatus(api, videoNo, 240_000)).status).toBe('PARSE');
}, 360_000);

afterAll(async () => {
  await cleanup?.();
});

/** This video's hits for `query`, best first. */
async function hitsOf(query: string): Promise<ClipItem[]> {
  const res = await api.post<ClipItem[]>('/search', { search_param: query, top_k: 20 });
  expect(res.status).toBe(200);
  return (res.json.data ?? []).filter((h) => h.videoNo === videoNo);
}

const inPeopleShot = (h: ClipItem | undefined): boolean => Number(h?.endTime) <= SHOT_SECONDS + 0.5;

describe('people and drawing descriptors, found through /search', () => {
  it('finds the shot with two people first by "two people", with why it matched', async () => {
    const hits = await hitsOf('two people');
    expect(inPeopleShot(hits[0])).toBe(true);
    // "people: two people" since the query side groups reasons by descriptor kind; "seen: two, people" before.
    expect(hits[0]?.matched).toMatch(/^(people: two people|seen: .*people)/);
    for (const h of hits.slice(1)) expect(h.score).toBeLessThan(hits[0]!.score);
  });

  it('finds the drawn shot first by "drawing" and by "cartoon"', async () => {
    for (const query of ['drawing', 'cartoon']) {
      const hits = await hitsOf(query);
      expect(hits.length, query).toBeGreaterThan(0);
      expect(inPeopleShot(hits[0]), query).toBe(false);
      expect(Number(hits[0]?.startTime), query).toBeGreaterThanOrEqual(SHOT_SECONDS - 0.5);
    }
  });
});
