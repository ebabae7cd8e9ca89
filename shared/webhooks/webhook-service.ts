import type { Config } from '../config.js';
import { notFound, unprocessable } from '../errors/index.js';
import { newId } from '../ids.js';
import type { Services } from '../services.js';
import { enqueueDelivery } from './deliver.js';
import { listDeliveries, resetDelivery, type DeliveryRecord } from './delivery-repository.js';
import { newWebhookSecret } from './signing.js';
import { checkTarget, TargetRefused, urlProblems } from './target-guard.js';
import type { WebhookInput, WebhookPatch } from './webhook-input.js';
import { countWebhooks, deleteWebhook, findWebhook, insertWebhook, rotateWebhookSecret, updateWebhook, type WebhookRecord } from './webhook-repository.js';

/** Webhooks an organization may have: each multiplies every event into another delivery. */
export const MAX_WEBHOOKS_PER_ORG = 100;
/** After a rotation the old secret signs beside the new one this long. */
export const PREVIOUS_SECRET_VALID_MS = 24 * 3600_000;

/** The URL, normalized, once it is well formed and leads to a public address (422 otherwise). */
export async function receiverUrl(config: Config, raw: string): Promise<string> {
  const problems = urlProblems(raw);
  if (problems.length > 0) throw unprocessable('Invalid webhook URL.', problems);
  const url = new URL(raw);
  try {
    await checkTarget(url, config.webhooks.allowPrivateTargets);
  } catch (err) {
    if (!(err instanceof TargetRefused)) throw err;
    throw unprocessable('Folio does not deliver to this URL.', [
      `url: ${err.message}; webhooks reach public addresses only (the operator may allow others with WEBHOOK_ALLOW_PRIVATE_TARGETS=true)`,
    ]);
  }
  return url.toString();
}

export async function createWebhook(services: Services, orgId: string, input: WebhookInput): Promise<WebhookRecord & { secret: string }> {
  const url = await receiverUrl(services.config, input.url);
  if ((await countWebhooks(services.db, orgId)) >= MAX_WEBHOOKS_PER_ORG) {
    throw unprocessable(`An organization has at most ${MAX_WEBHOOKS_PER_ORG} webhooks; delete one first.`);
  }
  const secret = newWebhookSecret();
  const record = await insertWebhook(services.db, orgId, {
    id: newId(),
    url,
    events: input.events,
    models: input.models ?? null,
    description: input.description ?? null,
    enabled: input.enabled ?? true,
    secret,
  });
  return { ...record, secret };
}

export async function getWebhook(services: Services, orgId: string, id: string): Promise<WebhookRecord> {
  const found = await findWebhook(services.db, orgId, id);
  if (!found) throw notFound('Webhook');
  return found;
}

export async function patchWebhook(services: Services, orgId: string, id: string, patch: WebhookPatch): Promise<WebhookRecord> {
  const url = patch.url === undefined ? undefined : await receiverUrl(services.config, patch.url);
  const updated = await updateWebhook(services.db, orgId, id, { ...patch, url });
  if (!updated) throw notFound('Webhook');
  return updated;
}

export async function removeWebhook(services: Services, orgId: string, id: string): Promise<void> {
  if (!(await deleteWebhook(services.db, orgId, id))) throw notFound('Webhook');
}

/** A new secret, shown once; the old one keeps signing beside it for a day. */
export async function rotateSecret(services: Services, orgId: string, id: string): Promise<{ id: string; secret: string; previousSecretValidUntil: Date }> {
  const secret = newWebhookSecret();
  const previousSecretValidUntil = new Date(Date.now() + PREVIOUS_SECRET_VALID_MS);
  if (!(await rotateWebhookSecret(services.db, orgId, id, secret, previousSecretValidUntil))) throw notFound('Webhook');
  return { id, secret, previousSecretValidUntil };
}

export async function webhookDeliveries(services: Services, orgId: string, id: string, page: { offset: number; limit: number }) {
  await getWebhook(services, orgId, id);
  return listDeliveries(services.db, orgId, id, page);
}

/** Sends a delivery again (same id and body), now if it heads its lane, else in its turn. */
export async function redeliver(services: Services, orgId: string, webhookId: string, deliveryId: string): Promise<DeliveryRecord> {
  const reset = await services.db.transaction((tx) => resetDelivery(tx, orgId, webhookId, deliveryId));
  if (!reset) throw notFound('Delivery');
  if (reset.head) await enqueueDelivery(services, { orgId, id: deliveryId }, 0);
  return reset.delivery;
}
