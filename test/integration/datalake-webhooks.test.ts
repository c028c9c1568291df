import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../fixtures/media';
import {
  datalakeClient,
  startMediaServer,
  startWebhookReceiver,
  waitForOperation,
  webhookSecret,
  type DatalakeClient,
  type LocalServer,
  type Operation,
  type ReceivedWebhook,
} from '../helpers/datalake';
import { BLOB_BACKENDS, cliSync, type TestService } from '../helpers/service';
import { useService } from '../helpers/use-service';

interface Delivery {
  id: string;
  url: string;
  status: 'waiting' | 'success' | 'fail' | 'dead';
  attempt: number;
  response_code: number | null;
  message: string;
  next_attempt_at: string | null;
}

describe.each(BLOB_BACKENDS)('on %s', (backend) => {
  let service: TestService;
  let dl: DatalakeClient;
  let media: LocalServer;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let secret = '';
  let collection: string;

  const testService = useService({ backend, config: { webhooks: { maxAttempts: 3, baseDelayMs: 1000 } } });
  beforeAll(async () => {
    media = await startMediaServer();
    receiver = await startWebhookReceiver(() => secret);
    service = testService();
    dl = datalakeClient(service.origin, service.createKey('test', { kind: 'datalake' }));
    secret = webhookSecret(service, 'test');
    collection = (await dl.post<{ collection_id: string }>('/collections', { name: 'hooks' })).json.collection_id;
  }, 120_000);

  afterAll(async () => {
    await media?.close();
    await receiver?.close();
  });

  const clip = (): string => `${media.url}/media/${FIXTURES.hevcMov.file}`;
  const ingestWithHook = async (path: string, source = clip()): Promise<Operation> =>
    (
      await dl.post<Operation>('/videos', {
        collection_id: collection,
        source_url: source,
        callback_url: `${receiver.url}${path}`,
      })
    ).json;
  const deliveries = async (op: string): Promise<Delivery[]> =>
    (await dl.get<{ deliveries: Delivery[] }>(`/operations/${op}/deliveries`)).json.deliveries;
  const hooksFor = (op: string): ReceivedWebhook[] =>
    receiver.received.filter(
      (r) => (r.payload as { data?: { operation?: string } } | null)?.data?.operation === op || r.body.includes(op),
    );

  describe('webhook-secret command', () => {
    it('prints the account secret in the Standard Webhooks format, and fails for an unknown account', () => {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
      expect(() =>
        cliSync(['webhook-secret', '--data', service.dataDir, '--config', service.configFile, '--account', 'nobody']),
      ).toThrow('no account named nobody');
    });
  });

  describe('operation webhooks', () => {
    it('signs the completion webhook so the receiver verifies it; the delivery goes waiting -> success', async () => {
      const started = await ingestWithHook('/slow');
      const op = await waitForOperation(dl, started.operation);
      expect(op.error).toBeNull();
      // /slow holds its answer 1.5 s: meanwhile the delivery is still waiting on its first attempt.
      await expect
        .poll(async () => (await deliveries(op.operation))[0]?.status, { timeout: 10_000, interval: 50 })
        .toBe('waiting');
      await expect.poll(async () => (await deliveries(op.operation))[0]?.status, { timeout: 10_000 }).toBe('success');
      const [delivery] = await deliveries(op.operation);
      expect(delivery).toMatchObject({
        url: `${receiver.url}/slow`,
        attempt: 1,
        response_code: 204,
        next_attempt_at: null,
      });
      const [hook] = hooksFor(op.operation);
      expect(hook?.verified).toBe(true);
      expect(hook?.headers['webhook-id']).toBe(delivery?.id);
      expect(hook?.payload).toMatchObject({
        type: 'operation.completed',
        data: { operation: op.operation, done: true, error: null, kind: 'ingest' },
      });
      // A tampered body or another secret does not verify.
      const { Webhook } = await import('standardwebhooks');
      const headers = {
        'webhook-id': String(hook?.headers['webhook-id']),
        'webhook-timestamp': String(hook?.headers['webhook-timestamp']),
        'webhook-signature': String(hook?.headers['webhook-signature']),
      };
      expect(() => new Webhook(secret).verify(`${hook?.body ?? ''} `, headers)).toThrow();
      expect(() =>
        new Webhook(`whsec_${Buffer.from('another secret!!').toString('base64')}`).verify(hook?.body ?? '', headers),
      ).toThrow();
    });

    it('sends the webhook for a failed operation too, with its error', async () => {
      const op = await waitForOperation(dl, (await ingestWithHook('/ok', `${media.url}/watch`)).operation, 30_000);
      expect(op.error?.code).toBe('source_unresolved');
      await expect.poll(async () => (await deliveries(op.operation))[0]?.status, { timeout: 10_000 }).toBe('success');
      expect(hooksFor(op.operation)[0]?.payload).toMatchObject({
        data: { operation: op.operation, done: true, error: { code: 'source_unresolved' } },
      });
    });

    it('retries after a failed attempt: fail -> success, the same message id on both attempts', async () => {
      const op = await waitForOperation(
        dl,
        (await ingestWithHook('/fail-once/a', `${media.url}/watch`)).operation,
        30_000,
      );
      await expect.poll(async () => (await deliveries(op.operation))[0]?.status, { timeout: 10_000 }).toBe('success');
      const [delivery] = await deliveries(op.operation);
      expect(delivery).toMatchObject({ attempt: 2, response_code: 204 });
      const hooks = hooksFor(op.operation);
      expect(hooks).toHaveLength(2);
      expect(hooks.every((h) => h.verified && h.headers['webhook-id'] === delivery?.id)).toBe(true);
    });

    it('marks the delivery dead after webhooks.maxAttempts failed attempts, with backoff between them', async () => {
      const op = await waitForOperation(dl, (await ingestWithHook('/fail', `${media.url}/watch`)).operation, 30_000);
      await expect
        .poll(async () => (await deliveries(op.operation))[0]?.status, { timeout: 5_000, interval: 50 })
        .toBe('fail');
      const failing = (await deliveries(op.operation))[0];
      expect(failing).toMatchObject({ attempt: 1, response_code: 500, next_attempt_at: expect.any(String) as unknown });
      await expect.poll(async () => (await deliveries(op.operation))[0]?.status, { timeout: 15_000 }).toBe('dead');
      expect((await deliveries(op.operation))[0]).toMatchObject({
        attempt: 3,
        response_code: 500,
        next_attempt_at: null,
      });
      const times = hooksFor(op.operation).map((h) => h.at);
      expect(times).toHaveLength(3);
      // baseDelayMs 1000: the first retry waits 0.5-1 s, the second 1-2 s (exponential, half of it jitter).
      expect((times[1] ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(450);
      expect((times[2] ?? 0) - (times[1] ?? 0)).toBeGreaterThanOrEqual(950);
      await new Promise((r) => setTimeout(r, 1500));
      expect(hooksFor(op.operation)).toHaveLength(3);
    });

    it('keeps retrying a failing delivery after the service is killed and restarted', async () => {
      receiver.setFailing(true);
      const op = await waitForOperation(dl, (await ingestWithHook('/flaky', `${media.url}/watch`)).operation, 30_000);
      await expect
        .poll(async () => (await deliveries(op.operation))[0]?.status, { timeout: 5_000, interval: 20 })
        .toBe('fail');
      await service.kill();
      receiver.setFailing(false);
      await service.restart();
      await expect.poll(async () => (await deliveries(op.operation))[0]?.status, { timeout: 20_000 }).toBe('success');
      expect((await deliveries(op.operation))[0]?.attempt).toBeGreaterThanOrEqual(2);
    });
  });
});
