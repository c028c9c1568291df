import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, fixturePath } from '../fixtures/media';
import {
  datalakeClient,
  startMediaServer,
  startWebhookReceiver,
  waitForOperation,
  type DatalakeClient,
  type LocalServer,
} from '../helpers/datalake';
import { startHitServer, type HitServer } from '../helpers/hit-server';
import { makeHls, startLiveHls } from '../helpers/live-hls';
import { describeInLoopbackNamespace } from '../helpers/netns';
import type { TestService } from '../helpers/service';
import { useService } from '../helpers/use-service';
import { tempDir } from '../helpers/temp';

// 8.8.8.8 is put on lo inside the namespace: a "public" host these tests serve themselves, reachable without any
// packet leaving the machine. 127.0.0.1 is the private side an attacker aims at.
const PUBLIC = '8.8.8.8';

interface Delivery {
  status: string;
  message: string;
  response_code: number | null;
}
interface Stream {
  stream_id: string;
  status: string;
  error: string | null;
  segments: number;
}

async function streamOutcome(dl: DatalakeClient, body: Record<string, unknown>, timeoutMs = 30_000): Promise<Stream> {
  const created = await dl.post<Stream>('/streams', body);
  expect(created.status).toBe(201);
  const end = Date.now() + timeoutMs;
  let stream = created.json;
  while (Date.now() < end && (stream.status === 'starting' || stream.status === 'live')) {
    await new Promise((r) => setTimeout(r, 150));
    stream = (await dl.get<Stream>(`/streams/${created.json.stream_id}`)).json;
  }
  return stream;
}

/** A playable one-segment HLS playlist, so that reaching the server that serves it would make the pull succeed. */
const playlist = (segment: string): string =>
  ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:1', '#EXTINF:1.0,', segment, '#EXT-X-ENDLIST', ''].join('\n');
const HLS = 'application/vnd.apple.mpegurl';

describeInLoopbackNamespace(
  'SSRF through the service (loopback-only network namespace)',
  import.meta.filename,
  [PUBLIC],
  () => {
    describe.each([
      { allow: false, name: 'network.allowPrivateTargets false' },
      { allow: true, name: 'network.allowPrivateTargets true' },
    ])('the service with $name', ({ allow }) => {
      let service: TestService;
      let dl: DatalakeClient;
      let media: LocalServer;
      let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
      /** The private side: a live playlist an attacker wants the service to read. */
      let inside: HitServer;
      /** The public side on 8.8.8.8:80: redirects to the private side, and a playlist whose segment is private. */
      let outside: HitServer;
      let collection: string;
      const testService = useService({
        config: {
          network: { allowPrivateTargets: allow },
          indexer: { paused: true },
          webhooks: { maxAttempts: 1, baseDelayMs: 100 },
        },
      });
      beforeAll(async () => {
        media = await startMediaServer();
        receiver = await startWebhookReceiver(() => 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
        inside = await startHitServer('127.0.0.1', 0, { '/x.m3u8': { type: HLS, body: () => playlist('s0.ts') } });
        outside = await startHitServer(PUBLIC, 80, {
          '/evil.m3u8': { type: HLS, body: () => playlist(`${inside.url}/s0.ts`) },
          '/evil-text.m3u8': { type: 'text/plain', body: () => playlist(`${inside.url}/s1.ts`) },
          // Another account's stored segment, as a playlist line (issue 14, item 1, reached over a live pull).
          '/file.m3u8': { type: HLS, body: () => playlist('file:///var/lib/reelsync/blobs/b1/videos/VI1/seg.ts') },
        });
        service = testService();
        dl = datalakeClient(service.origin, service.createKey('test', { kind: 'datalake' }));
        collection = (await dl.post<{ collection_id: string }>('/collections', { name: 'ssrf' })).json.collection_id;
      }, 60_000);
      /** Reached (then failed: it serves no video) when private targets are allowed; refused, untouched, when not. */
      const expectPrivateSide = (stream: Stream, hit: (path: string) => boolean): void => {
        const reached = inside.hits.filter(hit);
        inside.hits.length = 0;
        expect(stream.status).toBe('failed');
        if (allow) expect(reached.length).toBeGreaterThan(0);
        else {
          expect(stream.error).toMatch(/refused to connect to 127\.0\.0\.1/);
          expect(reached).toEqual([]);
        }
      };
      afterAll(async () => {
        await media?.close();
        await receiver?.close();
        await inside?.close();
        await outside?.close();
      });

      it(
        allow
          ? 'fetches a 127.0.0.1 source_url (preprocess completes)'
          : 'refuses a 127.0.0.1 source_url and its webhook, touching neither',
        async () => {
          const source = `${media.url}/media/${FIXTURES.hevcMov.file}`;
          const hook = `${receiver.url}/ok`;
          const op = (
            await dl.post<{ operation: string }>('/videos', {
              collection_id: collection,
              source_url: source,
              callback_url: hook,
            })
          ).json.operation;
          if (allow) {
            // The indexer is paused: preprocess finishing proves the fetch went through.
            const running = await waitForOperation(dl, op, 30_000, (o) => o.progress.preprocess === 'done' || o.done);
            expect(running.error).toBeNull();
            expect(running.progress.preprocess).toBe('done');
            return;
          }
          const done = await waitForOperation(dl, op, 30_000);
          expect(done.error?.code).toBe('source_unresolved');
          expect(done.error?.message).toMatch(/refused to connect to 127\.0\.0\.1.*allowPrivateTargets/);
          const end = Date.now() + 15_000;
          let deliveries: Delivery[] = [];
          while (Date.now() < end) {
            deliveries = (await dl.get<{ deliveries: Delivery[] }>(`/operations/${op}/deliveries`)).json.deliveries;
            if (deliveries[0]?.status === 'dead') break;
            await new Promise((r) => setTimeout(r, 100));
          }
          expect(deliveries[0]?.status).toBe('dead');
          expect(deliveries[0]?.message).toMatch(/refused to connect to 127\.0\.0\.1/);
          expect(receiver.received).toEqual([]);
        },
        60_000,
      );

      it(
        allow
          ? 'pulls a 127.0.0.1 live source (ffmpeg reaches it through the relay)'
          : 'refuses a 127.0.0.1 live source before anything reaches it',
        async () => {
          const stream = await streamOutcome(dl, { collection_id: collection, source_url: `${inside.url}/x.m3u8` });
          const reached = inside.hits.filter((h) => h.startsWith('/x.m3u8'));
          inside.hits.length = 0;
          if (allow) {
            // The playlist was read; its segment is not a video (the server says "reached"), so the pull fails in ffmpeg.
            expect(reached.length).toBeGreaterThan(0);
            expect(stream.status).toBe('failed');
            expect(stream.error).toMatch(/ffmpeg/);
            return;
          }
          expect(stream.status).toBe('failed');
          expect(stream.error).toMatch(/refused to connect to 127\.0\.0\.1/);
          expect(reached).toEqual([]);
        },
        40_000,
      );

      it('sends a backslash-@ URL to the host WHATWG parsing names, never to the one after the @', async () => {
        // ffmpeg's own URL parser read `http://8.8.8.8\@127.0.0.1:PORT/x.m3u8` as host 127.0.0.1 once 8.8.8.8 passed the check.
        const port = new URL(inside.url).port;
        const stream = await streamOutcome(dl, {
          collection_id: collection,
          source_url: `http://${PUBLIC}\\@127.0.0.1:${port}/x.m3u8`,
        });
        expect(stream.status).toBe('failed');
        expect(inside.hits).toEqual([]);
        expect(outside.hits).toContain(`/@127.0.0.1:${port}/x.m3u8`);
      }, 40_000);

      it(
        allow
          ? 'follows a redirect from the public host to a private one'
          : 'refuses a redirect from the public host to a private one',
        async () => {
          const stream = await streamOutcome(dl, {
            collection_id: collection,
            source_url: `http://${PUBLIC}/to?u=${encodeURIComponent(`${inside.url}/x.m3u8`)}`,
          });
          expect(outside.hits.some((h) => h.startsWith('/to?'))).toBe(true);
          expectPrivateSide(stream, (h) => h.startsWith('/x.m3u8'));
        },
        40_000,
      );

      it.each([
        ['a playlist type', '/evil.m3u8', '/s0.ts'],
        ['text/plain', '/evil-text.m3u8', '/s1.ts'],
      ])(
        `${allow ? 'reads' : 'refuses'} a public playlist (served as %s) whose segment URL is private`,
        async (_type, path, segment) => {
          const stream = await streamOutcome(dl, { collection_id: collection, source_url: `http://${PUBLIC}${path}` });
          expect(outside.hits).toContain(path);
          expectPrivateSide(stream, (h) => h === segment);
        },
        40_000,
      );

      it('refuses a playlist whose segment is a file:// URL', async () => {
        const stream = await streamOutcome(dl, { collection_id: collection, source_url: `http://${PUBLIC}/file.m3u8` });
        expect(stream.status).toBe('failed');
        expect(stream.error).toMatch(
          /refused to fetch file:\/\/\/var\/lib\/reelsync\/blobs\/b1\/videos\/VI1\/seg\.ts: live sources are read over http and https only/,
        );
      }, 40_000);

      it(`pulls a live HLS source on a public address to its end${allow ? '' : ' with private targets refused'}`, async () => {
        const { dir, cleanup } = await tempDir('reelsync-hls-');
        const segments = await makeHls(fixturePath('phoneH264Mp4'), dir);
        const live = await startLiveHls(dir, segments, 500, 1000, PUBLIC);
        try {
          const stream = await streamOutcome(
            dl,
            { collection_id: collection, source_url: `${live.url}/live.m3u8`, segment_seconds: 2 },
            60_000,
          );
          expect(stream.error).toBeNull();
          expect(stream.status).toBe('ended');
          expect(stream.segments).toBe(2);
        } finally {
          await live.close();
          await cleanup();
        }
      }, 90_000);
    });
  },
);
