import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * Standard Webhooks signing (standardwebhooks.com), done by its reference library: a secret is
 * `whsec_` + base64 of 24 random bytes; each attempt carries `webhook-id`, `webhook-timestamp`
 * (seconds) and `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the
 * secret's decoded bytes. Any Standard Webhooks library verifies it.
 */

export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * The headers of one attempt. With a previous secret still valid (a rotation in progress), both
 * signatures are sent, space-separated, so a receiver holding either verifies.
 */
export function signDelivery(secrets: string[], msgId: string, at: Date, body: string): SignedHeaders {
  const signatures = secrets.map((s) => new Webhook(s).sign(msgId, at, body));
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
