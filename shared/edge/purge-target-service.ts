import { notFound, unprocessable } from '../errors/index.js';
import { newId } from '../ids.js';
import type { Services } from '../services.js';
import { listDeliveries } from '../webhooks/delivery-repository.js';
import { receiverUrl } from '../webhooks/webhook-service.js';
import { countWebhooks, deleteWebhook, findWebhook, insertWebhook, listWebhooks, updateWebhook, type WebhookRecord } from '../webhooks/webhook-repository.js';
import type { PurgeTargetInput, PurgeTargetPatch } from './edge-input.js';
import { PURGE_KIND } from './purge-delivery-target.js';
import { PLACEHOLDER, publicPurgeConfig, templateProblem, type PurgeConfig } from './purge-target.js';
import { headerValueProblems } from './purge-header-values.js';

/** Purge targets an organization may have. */
export const MAX_PURGE_TARGETS_PER_ORG = 10;

/** A purge target as the API shows it: its provider's settings without the API token. */
export type PurgeTargetView = Omit<WebhookRecord, 'settings' | 'models' | 'url'> & Record<string, unknown>;

/** A purge target: a subscription of kind PURGE_KIND whose settings are its provider's. */
type PurgeTargetRecord = WebhookRecord<PurgeConfig>;

function view(record: PurgeTargetRecord): PurgeTargetView {
  const { settings, models: _models, url: _url, ...rest } = record;
  return { ...rest, ...(settings ? publicPurgeConfig(settings) : {}) };
}

/** A generic target's URL, checked as a webhook receiver's is (public addresses only) with its placeholders filled. */
async function checkTemplate(services: Services, template: string): Promise<void> {
  await receiverUrl(services.config, template.replace(PLACEHOLDER, 'x'));
}

function configOf(input: PurgeTargetInput): PurgeConfig {
  if (input.provider === 'http') return { provider: 'http', method: input.method, url: input.url, headers: input.headers };
  if (input.provider === 'fastly') return { provider: 'fastly', serviceId: input.serviceId, apiToken: input.apiToken, softPurge: input.softPurge };
  return { provider: 'cloudflare', zoneId: input.zoneId, apiToken: input.apiToken };
}

/** Shown in the `url` column of the shared table: what the target purges. */
const describe = (c: PurgeConfig) => (c.provider === 'http' ? c.url : c.provider === 'fastly' ? `fastly:${c.serviceId}` : `cloudflare:${c.zoneId}`);

export async function createPurgeTarget(services: Services, orgId: string, input: PurgeTargetInput): Promise<PurgeTargetView> {
  const headerProblems = headerValueProblems({ headers: input.provider === 'http' ? input.headers : undefined, apiToken: input.provider === 'http' ? undefined : input.apiToken });
  if (headerProblems.length > 0) throw unprocessable('Invalid purge target.', headerProblems);
  if (input.provider === 'http') await checkTemplate(services, input.url);
  if ((await countWebhooks(services.db, orgId, PURGE_KIND)) >= MAX_PURGE_TARGETS_PER_ORG) {
    throw unprocessable(`An organization has at most ${MAX_PURGE_TARGETS_PER_ORG} purge targets; delete one first.`);
  }
  const purge = configOf(input);
  const record = await insertWebhook(
    services.db,
    orgId,
    { id: newId(), url: describe(purge), events: input.events, models: null, description: input.description ?? null, enabled: input.enabled ?? true, secret: '', settings: purge },
    PURGE_KIND,
  );
  return view(record);
}

export async function listPurgeTargets(services: Services, orgId: string, page: { offset: number; limit: number }) {
  const { items, total } = await listWebhooks<PurgeConfig>(services.db, orgId, page, PURGE_KIND);
  return { items: items.map(view), total };
}

async function find(services: Services, orgId: string, id: string): Promise<PurgeTargetRecord> {
  const found = await findWebhook<PurgeConfig>(services.db, orgId, id, PURGE_KIND);
  if (!found?.settings) throw notFound('Purge target');
  return found;
}

export async function getPurgeTarget(services: Services, orgId: string, id: string): Promise<PurgeTargetView> {
  return view(await find(services, orgId, id));
}

/** Changes the common members, a provider's API token, or a generic target's request. */
export async function patchPurgeTarget(services: Services, orgId: string, id: string, patch: PurgeTargetPatch): Promise<PurgeTargetView> {
  const current = (await find(services, orgId, id)).settings!;
  const headerProblems = headerValueProblems(patch);
  if (headerProblems.length > 0) throw unprocessable('Invalid purge target.', headerProblems);
  let purge: PurgeConfig | undefined;
  if (current.provider === 'http') {
    if (patch.apiToken !== undefined) throw unprocessable('A generic purge target has no API token.', ['apiToken: not a member of an http target']);
    if (patch.url !== undefined || patch.method !== undefined || patch.headers !== undefined) {
      purge = { ...current, url: patch.url ?? current.url, method: patch.method ?? current.method, headers: patch.headers ?? current.headers };
      const problem = templateProblem(purge);
      if (problem) throw unprocessable('Invalid purge target.', [`url: ${problem}`]);
      await checkTemplate(services, purge.url);
    }
  } else {
    if (patch.url !== undefined || patch.method !== undefined || patch.headers !== undefined) {
      throw unprocessable(`A ${current.provider} purge target has no url, method or headers.`, ['url, method, headers: members of http targets only']);
    }
    if (patch.apiToken !== undefined) purge = { ...current, apiToken: patch.apiToken };
  }
  const updated = await updateWebhook(
    services.db,
    orgId,
    id,
    { events: patch.events, description: patch.description, enabled: patch.enabled, settings: purge, url: purge ? describe(purge) : undefined },
    PURGE_KIND,
  );
  if (!updated) throw notFound('Purge target');
  return view(updated);
}

export async function removePurgeTarget(services: Services, orgId: string, id: string): Promise<void> {
  if (!(await deleteWebhook(services.db, orgId, id, PURGE_KIND))) throw notFound('Purge target');
}

export async function purgeTargetDeliveries(services: Services, orgId: string, id: string, page: { offset: number; limit: number }) {
  await find(services, orgId, id);
  return listDeliveries(services.db, orgId, id, page);
}
