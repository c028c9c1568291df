import { afterAll, beforeAll, expect, test } from 'vitest';
import { ffprobe } from '../../src/common/media/ffprobe';
import { ReelsyncApp } from '../../src/main/app';
import { createLogger } from '../../src/main/log';
import { SearchCache } from '../../src/main/search/search-cache';
import { LibraryCacheStore } from '../../src/main/store/library-cache-store';
import type { ClipView } from '../../src/shared/contract/clips';
import type { SearchHit } from '../../src/shared/contract/library';
import { apiClient, waitForStatus } from '../helpers/api';
import { makeCounterVideo } from '../helpers/frame-counter';
import type { TestService } from '../helpers/service';
import { useService } from '../helpers/use-service';
import { tempDir } from '../helpers/temp';

let service: TestService;
let app: ReelsyncApp;
let dir: string;
let cleanup: () => Promise<void>;

const testService = useService();
beforeAll(async () => {
  service = testService();
  ({ dir, cleanup } = await tempDir('reelsync-offline-'));
  app = new ReelsyncApp({
    dataDir: dir,
    mode: 'web',
    logger: createLogger('test'),
    library: { baseUrl: service.baseUrl, key: service.key },
  });
  await app.start();
});

afterAll(async () => {
  await app?.stop();
  await cleanup?.();
});

async function call<T>(channel: string, req: unknown): Promise<T> {
  const res = await app.registry.invoke(channel, req);
  if (!res.ok) throw new Error(`${channel}: ${res.error.code} ${res.error.message}`);
  return res.value as T;
}

test('with the service stopped, clips, cached thumbnails and the last results stay browsable and playable', async () => {
  const api = apiClient(service.baseUrl, service.key);
  const file = await makeCounterVideo(dir, 'harbour.mp4');
  const videoNo = (await api.upload<{ videoNo: string }>(file)).json.data?.videoNo ?? '';
  const meta = (await waitForStatus(api, videoNo, 90_000)) as {
    status: string;
    video_bucket: string;
    video_blob: string;
  };
  const keyframe = { bucket: meta.video_bucket, blob: `keyframes/${videoNo}/0.jpg` };

  // Online: save a clip (no local original: downloaded, then cut), look at a keyframe, run a search.
  const ready = new Promise<ClipView>((resolve) => {
    const off = app.events.on('clips:changed', ({ clip }) => {
      if (clip?.state === 'ready' || clip?.state === 'failed') {
        off();
        resolve(clip);
      }
    });
  });
  const saved = await call<ClipView>('clips:save', {
    videoNo,
    start: 1,
    end: 2,
    query: 'boats in the harbour',
    text: 'two small boats leave the harbour',
    video: { bucket: meta.video_bucket, blob: meta.video_blob },
    keyframe,
    tags: ['harbour'],
  });
  expect(saved.state).toBe('queued');
  const clip = await ready;
  expect(clip.state).toBe('ready');
  // The keyframe as the UI's media route gets it: fetched from the service once, then kept in the disk cache.
  const online = await app.media.keyframe(keyframe.bucket, keyframe.blob);
  if (!online.ok) throw new Error(`keyframe: ${online.status} ${online.message}`);
  expect(online.contentType).toBe('image/jpeg');
  const hits: SearchHit[] = [
    {
      id: `${videoNo}@1-2`,
      videoNo,
      videoName: 'harbour.mp4',
      start: 1,
      end: 2,
      score: 0.8,
      text: 'two small boats',
      keyframe,
      localPath: null,
    },
  ];
  new SearchCache(new LibraryCacheStore(app.database)).record({ query: 'boats', type: 'BY_CLIP' }, hits);
  expect((await call<{ online: boolean }>('library:connectivity', {})).online).toBe(true);

  await service.stop();

  // Offline.
  expect(await call('library:connectivity', {})).toMatchObject({ configured: true, online: false });
  const list = await call<{ clips: ClipView[]; total: number }>('clips:list', {});
  expect(list.clips.map((c) => [c.id, c.state])).toEqual([[clip.id, 'ready']]);
  expect((await call<{ clips: ClipView[] }>('clips:search', { text: 'boats harb' })).clips.map((c) => c.id)).toEqual([
    clip.id,
  ]);
  expect((await call<{ dataUrl: string | null }>('clips:thumbnail', { id: clip.id })).dataUrl).toMatch(
    /^data:image\/jpeg;base64,/,
  );
  const cached = await app.media.keyframe(keyframe.bucket, keyframe.blob);
  expect(cached.ok && cached.bytes.equals(online.bytes)).toBe(true);
  const last = await call<{ results: { query: string; hits: SearchHit[] } | null }>('search:last-results', {});
  expect(last.results?.query).toBe('boats');
  expect(last.results?.hits).toEqual(hits);
  const updated = await call<ClipView>('clips:update', { id: clip.id, notes: 'opening shot' });
  expect(updated.notes).toBe('opening shot');
  expect((await call<{ count: number }>('clips:export', { format: 'edl' })).count).toBe(1);
  const probe = await ffprobe(clip.path ?? '', { kind: 'storedVideo' });
  expect(probe.video?.codec).toBe('h264');
  const quote = await app.registry.invoke('downloads:quote', { bucket: meta.video_bucket, blob: meta.video_blob });
  expect(quote.ok ? null : quote.error.code).toBe('offline');
});
