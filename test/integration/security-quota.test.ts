import { readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import type { UploadedVideo } from '../../src/shared/api-types';
import { fixturePath } from '../fixtures/media';
import { apiClient } from '../helpers/api';
import {
  datalakeClient,
  putChunk,
  waitForOperation,
  type DatalakeClient,
  type Operation,
  type ResumableSession as Session,
} from '../helpers/datalake';
import { BLOB_BACKENDS, type TestService } from '../helpers/service';
import { useService } from '../helpers/use-service';

// Short idle time and a small cap so the test sees both; the indexer is paused: nothing here needs an index.
const IDLE_MS = 4000; // longer than the 300-request attack takes on a loaded machine
const CAP = 5;
const GB3 = 3 * 1024 ** 3;

describe.each(BLOB_BACKENDS)('on %s', (backend) => {
  let service: TestService;

  const testService = useService({
    backend,
    config: { indexer: { paused: true }, limits: { openUploadSessions: CAP, uploadSessionIdleMs: IDLE_MS } },
  });
  beforeAll(async () => {
    service = testService();
  }, 60_000);

  /** A datalake caller of a fresh account with its own collection. */
  async function account(
    name: string,
    credits: number,
  ): Promise<{ dl: DatalakeClient; collection: string; balance: () => Promise<number> }> {
    const dl = datalakeClient(service.origin, service.createKey(name, { kind: 'datalake', credits }));
    const collection = (await dl.post<{ collection_id: string }>('/collections', { name: 'c' })).json.collection_id;
    const balance = async (): Promise<number> =>
      (await dl.get<{ balance_micro_usd: number }>('/usage/balance')).json.balance_micro_usd;
    return { dl, collection, balance };
  }

  const uploadDir = (): string => join(service.dataDir, 'datalake-uploads');
  const partFiles = async (): Promise<string[]> => (await readdir(uploadDir())).filter((f) => f.endsWith('.bin'));
  const exists = async (path: string): Promise<boolean> => (await stat(path).catch(() => null)) !== null;

  describe('resumable upload sessions are admitted, capped and expire', () => {
    it('refuses the 300-session attack after the cap, with 429 rate_limited and a clear message', async () => {
      const { dl, collection, balance } = await account('attacker', 100);
      const before = await balance();
      const filesBefore = (await partFiles()).length;
      const answers = await Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          dl.post<Session>('/videos?upload=resumable', {
            collection_id: collection,
            size: GB3,
            filename: `big-${i}.mp4`,
          }),
        ),
      );
      const created = answers.filter((a) => a.status === 201);
      const refused = answers.filter((a) => a.status !== 201);
      expect(created).toHaveLength(CAP);
      expect(refused).toHaveLength(300 - CAP);
      for (const r of refused) {
        expect(r.status).toBe(429);
        expect(r.json.error?.code).toBe('rate_limited');
        expect(r.json.error?.message).toMatch(/5 resumable upload sessions are open, the limit is 5/);
        expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      }
      // Only the admitted sessions have a part file; nothing was charged (the price is taken at finalize, on the real duration).
      expect((await partFiles()).length - filesBefore).toBe(CAP);
      expect(await balance()).toBe(before);
    });

    it('refuses a session the balance cannot pay for (402), counting the other open sessions', async () => {
      // 0.0015 USD: a 3 GB upload is expected to cost ~0.027 USD of indexing (priced at 8 Mbit/s), a 100 MB one 0.000834.
      const { dl, collection } = await account('poor', 0.0015);
      const big = await dl.post<Session>('/videos?upload=resumable', {
        collection_id: collection,
        size: GB3,
        filename: 'big.mp4',
      });
      expect(big.status).toBe(402);
      expect(big.json.error?.code).toBe('insufficient_balance');
      expect(big.json.error?.message).toMatch(/does not cover the expected indexing price 0\.026844 USD/);
      const small = await dl.post<Session>('/videos?upload=resumable', {
        collection_id: collection,
        size: 100_000_000,
        filename: 'small.mp4',
      });
      expect(small.status).toBe(201);
      // Two of them would cost 0.001668 USD: more than the balance, while the first is still open.
      const second = await dl.post<Session>('/videos?upload=resumable', {
        collection_id: collection,
        size: 100_000_000,
        filename: 'small-2.mp4',
      });
      expect(second.status).toBe(402);
      expect(second.json.error?.message).toMatch(/and the 1 other open upload sessions/);
    });

    it('expires an idle session: its part file is deleted and its upload_url answers 404 saying why', async () => {
      const { dl, collection } = await account('idler', 10);
      const created = await dl.post<Session>('/videos?upload=resumable', {
        collection_id: collection,
        size: 4096,
        filename: 'idle.mp4',
      });
      expect(created.status).toBe(201);
      const part = join(uploadDir(), `${created.json.video_id}.bin`);
      const put = await putChunk(dl, created.json.upload_url, Buffer.alloc(1024, 7), 0, 4096);
      expect(put.json.offset).toBe(1024);
      expect((await stat(part)).size).toBe(1024);
      await expect.poll(() => exists(part), { timeout: IDLE_MS * 6, interval: 100 }).toBe(false);
      const gone = await dl.get<Session>(created.json.upload_url);
      expect(gone.status).toBe(404);
      expect(gone.json.error?.message).toMatch(/expires with its bytes/);
      expect((await dl.get(`/videos/${created.json.video_id}`)).status).toBe(404);
      // Its place under the cap is free again.
      expect(
        (
          await dl.post<Session>('/videos?upload=resumable', {
            collection_id: collection,
            size: 4096,
            filename: 'next.mp4',
          })
        ).status,
      ).toBe(201);
    });

    it('at start, deletes sessions that went idle while stopped and part files no session owns', async () => {
      const { dl, collection } = await account('restarter', 10);
      const created = await dl.post<Session>('/videos?upload=resumable', {
        collection_id: collection,
        size: 4096,
        filename: 'r.mp4',
      });
      const part = join(uploadDir(), `${created.json.video_id}.bin`);
      const orphan = join(uploadDir(), 'VI0000000000000000000.bin'); // as a crash between writing and recording leaves it
      // On a shared database another replica may be receiving a file with no row yet: there only an hour-old one is an orphan.
      const fresh = join(uploadDir(), 'VI0000000000000000001.bin');
      await service.kill();
      await writeFile(orphan, Buffer.alloc(2048, 1));
      await writeFile(fresh, Buffer.alloc(2048, 1));
      if (backend === 'team')
        await utimes(orphan, new Date(Date.now() - 2 * 3600_000), new Date(Date.now() - 2 * 3600_000));
      await new Promise((r) => setTimeout(r, IDLE_MS + 200));
      await service.restart();
      expect(await exists(orphan)).toBe(false);
      expect(await exists(fresh)).toBe(backend === 'team');
      await expect.poll(() => exists(part), { timeout: 5000, interval: 100 }).toBe(false);
      expect((await dl.get(created.json.upload_url)).status).toBe(404);
      await rm(fresh, { force: true });
    }, 60_000);

    it('still carries a normal resumable upload through to its ingest', async () => {
      const { dl, collection, balance } = await account('editor', 10);
      const file = await readFile(fixturePath('phoneH264Mp4'));
      const created = await dl.post<Session>('/videos?upload=resumable', {
        collection_id: collection,
        size: file.length,
        filename: 'phone.mp4',
        content_type: 'video/mp4',
      });
      expect(created.status).toBe(201);
      const half = Math.floor(file.length / 2);
      for (const [start, end] of [
        [0, half],
        [half, file.length],
      ] as const) {
        const res = await putChunk(dl, created.json.upload_url, file.subarray(start, end), start, file.length);
        expect(res.json.offset).toBe(end);
      }
      const before = await balance();
      const fin = await dl.post<Operation>(`/videos/${created.json.video_id}:finalize`);
      expect(fin.status).toBe(202);
      const op = await waitForOperation(
        dl,
        fin.json.operation,
        60_000,
        (o) => o.progress.preprocess === 'done' || o.done,
      );
      expect(op.error).toBeNull();
      expect(await balance()).toBeLessThan(before); // charged at finalize for the probed duration
      // Finalized: no longer an open session, so the sweep leaves it alone.
      await new Promise((r) => setTimeout(r, IDLE_MS + 500));
      expect((await dl.get(`/videos/${created.json.video_id}`)).status).toBe(200);
    });
  });

  describe('HEAD on download', () => {
    it('answers the headers GET would send, with no body and no charge; GET is still charged', async () => {
      const api = apiClient(service.baseUrl, service.key);
      const dl = datalakeClient(service.origin, service.createKey('test', { kind: 'datalake' }));
      const balance = async (): Promise<number> =>
        (await dl.get<{ balance_micro_usd: number }>('/usage/balance')).json.balance_micro_usd;
      const uploaded = await api.upload<UploadedVideo>(fixturePath('phoneH264Mp4'));
      const videoNo = uploaded.json.data!.videoNo;
      const meta = (await api.get<{ video_bucket: string; video_blob: string }>(`/get_metadata?video_no=${videoNo}`))
        .json.data!;
      const url = `${service.baseUrl}/download?bucket=${meta.video_bucket}&blob=${meta.video_blob}`;
      const size = (await readFile(fixturePath('phoneH264Mp4'))).length;

      const before = await balance();
      for (let i = 0; i < 20; i++) {
        const head = await request(url, { method: 'HEAD', headers: { authorization: service.key } });
        expect(head.statusCode).toBe(200);
        expect(head.headers['content-length']).toBe(String(size));
        expect(head.headers['content-type']).toBe('video/mp4');
        expect(head.headers['content-disposition']).toContain('attachment; filename="phone-h264.mp4"');
        expect((await head.body.arrayBuffer()).byteLength).toBe(0);
      }
      const range = await request(url, {
        method: 'HEAD',
        headers: { authorization: service.key, range: 'bytes=0-99' },
      });
      expect(range.statusCode).toBe(206);
      expect(range.headers['content-range']).toBe(`bytes 0-99/${size}`);
      expect(range.headers['content-length']).toBe('100');
      await range.body.dump();
      const missing = await request(`${service.baseUrl}/download?bucket=${meta.video_bucket}&blob=videos/none.mp4`, {
        method: 'HEAD',
        headers: { authorization: service.key },
      });
      expect(missing.statusCode).toBe(404);
      await missing.body.dump();
      expect(await balance()).toBe(before);

      const get = await api.raw('GET', `/download?bucket=${meta.video_bucket}&blob=${meta.video_blob}`);
      expect(get.body.length).toBe(size);
      expect(before - (await balance())).toBe(Math.ceil((size * 120_000) / 1e9));
    });
  });
});
