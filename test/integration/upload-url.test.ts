import { spawnSync } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { FormData } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LibraryClient } from '../../src/main/api/client';
import { createLogger } from '../../src/main/log';
import { AppSettings } from '../../src/main/settings/app-settings';
import { databaseVault } from '../../src/main/settings/key-vault';
import { openDatabase } from '../../src/main/store/database';
import type { UploadedVideo } from '../../src/shared/api-types';
import { copyFixture, fixturePath, type FixtureName } from '../fixtures/media';
import { apiClient, waitForStatus, type ApiClient } from '../helpers/api';
import { datalakeClient } from '../helpers/datalake';
import { BLOB_BACKENDS, startService, type TestService } from '../helpers/service';
import { useService } from '../helpers/use-service';
import { tempDir } from '../helpers/temp';

const CLI = join(import.meta.dirname, '../../src/main/cli.ts');

/** A media server on 127.0.0.1 that counts what it is asked: fixtures, a web page, a PDF, a link that never ends. */
interface MediaServer {
  url: string;
  hits: string[];
  close(): Promise<void>;
}
async function startCountingServer(): Promise<MediaServer> {
  const hits: string[] = [];
  const byPath: Record<string, FixtureName> = {
    '/phone.mp4': 'phoneH264Mp4',
    '/clip.mkv': 'vp9Mkv',
    '/text.mp4': 'notVideoMp4',
    '/old.avi': 'mpeg4Avi',
  };
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    hits.push(path);
    const fixture = byPath[path];
    if (fixture) {
      const file = fixturePath(fixture);
      void stat(file).then((info) => {
        res.writeHead(200, {
          'content-type': path.endsWith('.mkv') ? 'video/x-matroska' : 'video/mp4',
          'content-length': info.size,
        });
        createReadStream(file).pipe(res);
      });
    } else if (path === '/watch') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>a platform page</title>');
    } else if (path === '/slow.mp4') {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': 50_000_000 });
      const timer = setInterval(() => res.write(Buffer.alloc(512)), 100);
      res.once('close', () => clearInterval(timer));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

let media: MediaServer;
let service: TestService;
let api: ApiClient;
let callbackServer: Server;
const callbacks: { videoNo: string; status: string }[] = [];
let callbackUrl = '';
const balance = async (on: TestService, account = 'test'): Promise<number> =>
  (
    await datalakeClient(on.origin, on.createKey(account, { kind: 'datalake' })).get<{ balance_micro_usd: number }>(
      '/usage/balance',
    )
  ).json.balance_micro_usd;

// The media server is on loopback: allowed here (the embedded default), refused by the second service below.
const testService = useService({
  config: { network: { allowPrivateTargets: true }, limits: { concurrentIngests: 1 } },
});
beforeAll(async () => {
  media = await startCountingServer();
  callbackServer = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      callbacks.push(JSON.parse(body) as { videoNo: string; status: string });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => callbackServer.listen(0, '127.0.0.1', () => r()));
  callbackUrl = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/done`;
  service = testService();
  api = apiClient(service.baseUrl, service.key);
}, 60_000);

afterAll(async () => {
  await media?.close();
  callbackServer?.close();
});

const form = (fields: Record<string, string>): FormData => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
};
const uploadUrl = (fields: Record<string, string>, client = api) =>
  client.post<UploadedVideo>('/upload_url', form(fields));

describe('POST /upload_url', () => {
  it('answers as /upload at once, fetches the link, charges by duration, indexes, and calls back', async () => {
    const before = await balance(service);
    const res = await uploadUrl({
      url: `${media.url}/phone.mp4`,
      unique_id: 'from-links',
      callback: callbackUrl,
      datetime_taken: '2024-05-17 14:32:10',
      camera_model: 'Pocket 3',
      'tags[0]': 'harbour',
      'tags[1]': 'dusk',
      video_transcription_prompt: 'harbour boats',
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      code: '0000',
      success: true,
      data: { videoName: 'phone.mp4', videoStatus: 'UNPARSE' },
    });
    const videoNo = res.json.data!.videoNo;
    expect(videoNo).toMatch(/^VI\d+/);
    expect(res.json.data!.uploadTime).toMatch(/^\d{13}$/);

    const meta = await waitForStatus(api, videoNo, 120_000);
    expect(meta).toMatchObject({
      status: 'PARSE',
      camera_model: 'Pocket 3',
      datetime_taken: '2024-05-17 14:32:10',
      codec: 'h264',
    });
    expect(meta.tags).toEqual(['harbour', 'dusk', 'api']);
    const folders = (await api.get<{ folder_id: number; unique_id: string | null }[]>('/folders')).json.data!;
    expect(folders.find((f) => f.unique_id === 'from-links')?.folder_id).toBe(meta.folder_id);
    const original = await api.raw(
      'GET',
      `/download?bucket=${String(meta.video_bucket)}&blob=${String(meta.video_blob)}`,
    );
    expect(original.body.equals(await readFile(fixturePath('phoneH264Mp4')))).toBe(true);
    expect(await balance(service)).toBeLessThan(before);
    await expect
      .poll(() => callbacks.find((c) => c.videoNo === videoNo), { timeout: 15_000 })
      .toEqual({ videoNo, status: 'PARSE' });
  }, 150_000);

  it('takes urlencoded fields too', async () => {
    const res = await api.raw('POST', '/upload_url', undefined, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(res.status).toBe(400); // no body: url is required
    const body = new URLSearchParams({ url: `${media.url}/clip.mkv`, camera_model: 'Drone' }).toString();
    const ok = await fetch(`${service.baseUrl}/upload_url`, {
      method: 'POST',
      headers: { authorization: service.key, 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    const json = (await ok.json()) as { data: UploadedVideo };
    expect(ok.status).toBe(200);
    expect(json.data).toMatchObject({ videoName: 'clip.mkv', videoStatus: 'UNPARSE' });
    await expect
      .poll(
        async () =>
          (await api.get<{ codec: string | null }>(`/get_metadata?video_no=${json.data.videoNo}`)).json.data?.codec,
        { timeout: 30_000 },
      )
      .toBe('vp9');
  });

  it('validates the fields as /upload does, before fetching anything', async () => {
    const hits = media.hits.length;
    const cases: [Record<string, string>, RegExp][] = [
      [{}, /url is required/],
      [{ url: 'ftp://example.com/a.mp4' }, /url must be an http or https URL/],
      [
        { url: `${media.url}/phone.mp4`, datetime_taken: '17/05/2024' },
        /datetime_taken must be in the format yyyy-MM-dd HH:mm:ss/,
      ],
      [
        { url: `${media.url}/phone.mp4`, callback: `http://x/${'a'.repeat(300)}` },
        /callback must be at most 299 characters/,
      ],
      [{ url: `${media.url}/phone.mp4`, camera_model: 'c'.repeat(201) }, /camera_model must be at most 200 characters/],
    ];
    for (const [fields, msg] of cases) {
      const res = await uploadUrl(fields);
      expect(res.status, JSON.stringify(fields).slice(0, 80)).toBe(400);
      expect(res.json.msg).toMatch(msg);
    }
    const withFile = new FormData();
    withFile.append('url', `${media.url}/phone.mp4`);
    withFile.append('file', new Blob([Buffer.alloc(100)], { type: 'video/mp4' }), 'x.mp4');
    expect((await api.post('/upload_url', withFile)).json.msg).toMatch(/not a file part/);
    expect(media.hits.length).toBe(hits);
  });

  it('ends a link that is not a usable video in FAIL with the reason, charging nothing', async () => {
    const before = await balance(service);
    for (const [path, reason] of [
      ['/watch', /web page/],
      ['/text.mp4', /not a readable video/],
      ['/old.avi', /video codec mpeg4 is not supported/],
      ['/missing.mp4', /answered HTTP 404/],
    ] as const) {
      const res = await uploadUrl({ url: `${media.url}${path}`, callback: callbackUrl });
      expect(res.status).toBe(200);
      const meta = await waitForStatus(api, res.json.data!.videoNo, 30_000);
      expect(meta.status, path).toBe('FAIL');
      expect(String(meta.fail_reason)).toMatch(reason);
      await expect
        .poll(() => callbacks.some((c) => c.videoNo === res.json.data!.videoNo && c.status === 'FAIL'), {
          timeout: 15_000,
        })
        .toBe(true);
    }
    expect(await balance(service)).toBe(before);
  });

  it('applies the upload limits: fetches at once (limits.concurrentIngests) and the balance', async () => {
    const slow = await uploadUrl({ url: `${media.url}/slow.mp4` });
    expect(slow.status).toBe(200);
    const second = await uploadUrl({ url: `${media.url}/phone.mp4` });
    expect(second.status).toBe(429);
    expect(second.json).toMatchObject({ code: '0429', msg: expect.stringMatching(/still being fetched/) as unknown });
    expect((await api.post('/delete_videos', [slow.json.data!.videoNo])).json.data).toMatchObject({
      deleted: [slow.json.data!.videoNo],
    });

    const broke = apiClient(service.baseUrl, service.createKey('broke', { credits: 0 }));
    const res = await uploadUrl({ url: `${media.url}/phone.mp4` }, broke);
    expect(res.status).toBe(402);
    expect(res.json.code).toBe('0402');
  });
});

describe.each(BLOB_BACKENDS)('POST /upload_url at the indexing-queue cap on %s', (backend) => {
  it('lets exactly the room left through when links arrive at once', async () => {
    const capped = await startService({
      backend,
      config: {
        network: { allowPrivateTargets: true },
        indexer: { paused: true },
        limits: { indexQueueCap: 2, concurrentIngests: 10 },
      },
    });
    try {
      const client = apiClient(capped.baseUrl, capped.key);
      // Links that never end: the videos stay queued (UNPARSE) while the others arrive.
      const answers = await Promise.all(
        [1, 2, 3, 4, 5, 6].map(() => uploadUrl({ url: `${media.url}/slow.mp4` }, client)),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 429, 429, 429, 429]);
      for (const refused of answers.filter((r) => r.status === 429)) {
        expect(refused.json.msg).toMatch(/indexing queue is full/);
      }
    } finally {
      await capped.stop();
    }
  });
});

describe('POST /upload_url with network.allowPrivateTargets false', () => {
  it('refuses the loopback link at connect time: the video is FAIL and the media server never hears of it', async () => {
    const closed = await startService({ config: { network: { allowPrivateTargets: false } } });
    try {
      const hits = media.hits.length;
      const client = apiClient(closed.baseUrl, closed.key);
      const res = await uploadUrl({ url: `${media.url}/phone.mp4` }, client);
      expect(res.status).toBe(200);
      const meta = await waitForStatus(client, res.json.data!.videoNo, 30_000);
      expect(meta.status).toBe('FAIL');
      expect(String(meta.fail_reason)).toMatch(/refused to connect to 127\.0\.0\.1/);
      expect(media.hits.length).toBe(hits);
    } finally {
      await closed.stop();
    }
  });
});

describe('the library address: origin or base URL', () => {
  it('the command line syncs with --server set to the bare origin, and REELSYNC_SERVER to the origin with a slash', async () => {
    const { dir, cleanup } = await tempDir('reelsync-origin-');
    try {
      for (const [i, server] of [service.origin, `${service.origin}/`].entries()) {
        const folder = join(dir, `f${i}`);
        await mkdir(folder, { recursive: true });
        await copyFixture('hevcMov', folder, `origin-${i}.mov`);
        const flags = i === 0 ? ['--server', server] : [];
        const res = spawnSync(
          process.execPath,
          [
            '--import',
            'tsx',
            CLI,
            ...flags,
            '--key',
            service.key,
            '--db',
            join(dir, `c${i}.db`),
            'sync',
            folder,
            '--once',
            '--stable-ms',
            '0',
          ],
          {
            encoding: 'utf8',
            timeout: 90_000,
            env: { ...process.env, REELSYNC_SERVER: i === 1 ? server : '' },
          },
        );
        expect(res.status, `${res.stdout}${res.stderr}`).toBe(0);
        expect(`${res.stdout}${res.stderr}`).not.toMatch(/no such endpoint/);
        const listed = await api.post<{ videos: { video_name: string }[] }>('/list_videos', {
          video_name: `origin-${i}.mov`,
        });
        expect(listed.json.data!.videos).toHaveLength(1);
      }
      const wrong = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          CLI,
          '--server',
          `${service.origin}/serve/datalake/v1`,
          '--key',
          service.key,
          '--db',
          join(dir, 'w.db'),
          'status',
        ],
        { encoding: 'utf8' },
      );
      expect(wrong.status).toBe(2);
      expect(wrong.stderr).toMatch(/datalake interface.*give the library's origin/);
    } finally {
      await cleanup();
    }
  }, 200_000);

  it('the Settings field stores the origin as the base URL, and a client on it reaches the service', async () => {
    const { dir, cleanup } = await tempDir('reelsync-origin-settings-');
    const db = openDatabase(join(dir, 'client.db'));
    try {
      const settings = new AppSettings(db, databaseVault);
      settings.setEndpoint({ mode: 'cloud', url: `${service.origin}/` });
      expect(settings.endpoint()).toEqual({ mode: 'cloud', url: service.baseUrl });
      settings.setEndpoint({ mode: 'cloud', url: service.baseUrl });
      expect(settings.endpoint()).toEqual({ mode: 'cloud', url: service.baseUrl });
      expect(() => settings.setEndpoint({ mode: 'cloud', url: `${service.origin}/serve/api/v2` })).toThrow(
        /another version of the library API/,
      );
      const endpoint = settings.endpoint();
      if (endpoint.mode !== 'cloud') throw new Error('cloud endpoint expected');
      const client = new LibraryClient({ baseUrl: endpoint.url, key: service.key, logger: createLogger('test') });
      try {
        const file = fixturePath('vp9Mkv');
        const uploaded = await client.upload(file, (await stat(file)).size, { tags: ['settings-origin'] });
        expect(uploaded.videoStatus).toBe('UNPARSE');
      } finally {
        await client.close();
      }
    } finally {
      db.close();
      await cleanup();
    }
  });
});
