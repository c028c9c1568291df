import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { FormData } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePath } from '../fixtures/media';
import { apiClient, type ApiClient } from '../helpers/api';
import { datalakeClient, waitForOperation, type DatalakeClient } from '../helpers/datalake';
import { playlistText } from '../helpers/playlist';
import type { TestService } from '../helpers/service';
import { useService } from '../helpers/use-service';

// Account A stores a real video; account B uploads HLS playlists named x.mp4 whose segments are A's stored file (by
// absolute file:// URL and by a path relative to where the service keeps uploads), or files that do not exist.
let service: TestService;
let a: ApiClient;
let b: ApiClient;
let bLake: DatalakeClient;
let playlists: { existing: string[]; missing: string[] };
let bBalance: () => Promise<number>;
let media: { url: string; server: Server };

const testService = useService({ config: { indexer: { paused: true } } });
beforeAll(async () => {
  service = testService();
  a = apiClient(service.baseUrl, service.key);
  b = apiClient(service.baseUrl, service.createKey('intruder', { credits: 10 }));
  bLake = datalakeClient(service.origin, service.createKey('intruder', { kind: 'datalake' }));
  bBalance = async () => (await bLake.get<{ balance_micro_usd: number }>('/usage/balance')).json.balance_micro_usd;
  const up = await a.upload<{ videoNo: string }>(fixturePath('drawnTextMp4'), {}, { filename: 'a-private.mp4' });
  const meta = await a.get<{ video_bucket: string; video_blob: string }>(
    `/get_metadata?video_no=${up.json.data?.videoNo ?? ''}`,
  );
  const { video_bucket: bucket, video_blob: blob } = meta.json.data ?? { video_bucket: '', video_blob: '' };
  const missingBlob = blob.replace(/videos\/[^/]+\//, 'videos/no-such-video/');
  // Uploads wait in <data>/tmp or <data>/datalake-uploads, so ../blobs/ reaches every account's stored files.
  const forms = (b2: string) => [`file://${join(service.dataDir, 'blobs', bucket, b2)}`, `../blobs/${bucket}/${b2}`];
  playlists = {
    existing: forms(blob).map((t) => playlistText([t, t, t])),
    missing: forms(missingBlob).map((t) => playlistText([t, t, t])),
  };
  expect((await readFile(join(service.dataDir, 'blobs', bucket, blob))).length).toBeGreaterThan(1000);
  const server = createServer((req, res) => {
    const i = Number(/^\/p(\d+)\.mp4$/.exec(req.url ?? '')?.[1] ?? -1);
    const body = [...playlists.existing, ...playlists.missing][i];
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': Buffer.byteLength(body) }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  media = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}, 120_000);

afterAll(async () => {
  await new Promise((r) => media?.server.close(r));
});

const all = () => [...playlists.existing, ...playlists.missing];

/** Every attack's answer must be the same, and none may name a path. */
function expectOneAnswer(answers: string[]): string {
  expect(new Set(answers).size).toBe(1);
  const answer = answers[0] ?? '';
  expect(answer).not.toMatch(/blobs|no-such-video|\.mp4|\/tmp\//);
  return answer;
}

async function expectNothingInB(balanceBefore: number): Promise<void> {
  const listed = await b.post<{ total_count: number }>('/list_videos', { page: 1, size: 100 });
  expect(listed.json.data?.total_count).toBe(0);
  expect(await bBalance()).toBe(balanceBefore);
}

describe("playlists that point at another account's stored video", () => {
  it('POST /upload refuses them as x.mp4 with one clear answer, whether the path exists or not', async () => {
    const before = await bBalance();
    const answers: string[] = [];
    for (const text of all()) {
      const form = new FormData();
      form.append('file', new Blob([text], { type: 'video/mp4' }), 'x.mp4');
      const res = await b.raw('POST', '/upload', form);
      expect(res.status).toBe(400);
      answers.push((JSON.parse(res.body.toString()) as { msg: string }).msg);
    }
    expect(expectOneAnswer(answers)).toMatch(
      /HLS playlist, not a supported video container \(mp4\/mov, mkv\/webm or avi\)/,
    );
    const form = new FormData();
    form.append('file', new Blob(['#EXTM3U but not quite a playlist'], { type: 'video/mp4' }), 'x.mp4');
    const garbage = await b.raw('POST', '/upload', form);
    expect(garbage.status).toBe(400);
    expect(garbage.body.toString()).not.toContain(service.dataDir);
    await expectNothingInB(before);
  });

  it('POST /search_image refuses them as the query photo, the same way', async () => {
    const answers: string[] = [];
    for (const text of all()) {
      const form = new FormData();
      form.append('file', new Blob([text], { type: 'image/png' }), 'face.png');
      const res = await b.raw('POST', '/search_image', form);
      expect(res.status).toBe(400);
      answers.push((JSON.parse(res.body.toString()) as { msg: string }).msg);
    }
    // The photo search reads the image header before anything decodes it: a playlist is no image it knows.
    expect(expectOneAnswer(answers)).toMatch(/the query image must be a JPEG, PNG/);
    const form = new FormData();
    form.append('file', new Blob(['not an image at all'], { type: 'image/png' }), 'face.png');
    const garbage = await b.raw('POST', '/search_image', form);
    expect(garbage.status).toBe(400);
    expect(garbage.body.toString()).not.toContain(service.dataDir);
  });

  it('the datalake refuses them by multipart, resumable upload and URL, the same way', async () => {
    const before = await bBalance();
    const collection = (await bLake.post<{ collection_id: string }>('/collections', { name: 'b-collection' })).json
      .collection_id;
    const multipart: string[] = [];
    const resumable: string[] = [];
    const byUrl: string[] = [];
    for (const [i, text] of all().entries()) {
      const form = new FormData();
      form.append('json', JSON.stringify({ collection_id: collection }));
      form.append('file', new Blob([text], { type: 'video/mp4' }), 'x.mp4');
      const res = await bLake.post<{ error: { code: string; message: string } }>('/videos', form);
      expect(res.status).toBe(415);
      expect(res.json.error.code).toBe('unsupported_media');
      multipart.push(res.json.error.message);

      const size = Buffer.byteLength(text);
      const session = (
        await bLake.post<{ video_id: string; upload_url: string }>('/videos?upload=resumable', {
          collection_id: collection,
          size,
          filename: 'x.mp4',
        })
      ).json;
      const put = await bLake.call('PUT', session.upload_url, Buffer.from(text), {
        'content-type': 'application/octet-stream',
        'content-range': `bytes 0-${size - 1}/${size}`,
      });
      expect(put.status).toBe(200);
      const fin = await bLake.post<{ error: { code: string; message: string } }>(
        `/videos/${session.video_id}:finalize`,
      );
      expect(fin.status).toBe(415);
      resumable.push(fin.json.error.message);

      const op = (
        await bLake.post<{ operation: string }>('/videos', {
          collection_id: collection,
          source_url: `${media.url}/p${i}.mp4`,
        })
      ).json;
      const done = await waitForOperation(bLake, op.operation, 60_000);
      expect(done.error?.code).toBe('unsupported_media');
      byUrl.push(done.error?.message ?? '');
    }
    for (const answers of [multipart, resumable, byUrl]) expect(expectOneAnswer(answers)).toMatch(/HLS playlist/);
    await expectNothingInB(before);
  });
});
