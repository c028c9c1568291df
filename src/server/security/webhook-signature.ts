import { Webhook } from 'standardwebhooks';

/**
 * Standard Webhooks headers for one delivery attempt, signed with the account's secret (`service -- webhook-secret`):
 * the same webhook-id on every attempt of a message (receivers deduplicate by it), a fresh timestamp and signature.
 */
export function signedHeaders(
  secret: string,
  messageId: string,
  body: string,
  now = new Date(),
): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(messageId, now, body),
  };
}
