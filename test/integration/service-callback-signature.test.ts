import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePath } from '../fixtures/media';
import { apiClient } from '../helpers/api';
import { startWebhookReceiver, webhookSecret } from '../helpers/datalake';
import { useService } from '../helpers/use-service';

const testService = useService();
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let secret = '';

beforeAll(async () => {
  // The secret as an integrator gets it: printed by `service -- webhook-secret`.
  secret = webhookSecret(testService(), 'test');
  receiver = await startWebhookReceiver(() => secret);
}, 60_000);
afterAll(async () => {
  await receiver?.close();
});

describe('library upload callbacks', () => {
  it('are signed the Standard Webhooks way with the account secret the CLI prints', async () => {
    expect(secret).toMatch(/^whsec_/);
    const service = testService();
    const api = apiClient(service.baseUrl, service.key);
    const uploaded = await api.upload<{ videoNo: string }>(fixturePath('phoneH264Mp4'), {
      callback: `${receiver.url}/ok`,
    });
    const videoNo = uploaded.json.data?.videoNo;
    expect(videoNo).toBeTruthy();
    await expect.poll(() => receiver.received.length, { timeout: 120_000, interval: 200 }).toBeGreaterThan(0);
    const [delivery] = receiver.received;
    expect(delivery?.verified).toBe(true);
    expect(delivery?.payload).toEqual({ videoNo, status: 'PARSE' });
    expect(String(delivery?.headers['webhook-id'])).toMatch(/^cb_\d+$/);
    // Another account's secret does not verify it: the signature is bound to this account.
    service.createKey('other', { kind: 'datalake' });
    const otherSecret = webhookSecret(service, 'other');
    const headers = {
      'webhook-id': String(delivery?.headers['webhook-id']),
      'webhook-timestamp': String(delivery?.headers['webhook-timestamp']),
      'webhook-signature': String(delivery?.headers['webhook-signature']),
    };
    expect(() => new Webhook(otherSecret).verify(delivery?.body ?? '', headers)).toThrow();
  }, 150_000);
});
