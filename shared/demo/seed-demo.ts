import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createAsset } from '../assets/asset-service.js';
import { authorDef } from '../content/authors.js';
import { putEntry } from '../content/entries.js';
import { labelDef } from '../content/labels.js';
import { listDef, putListEntries } from '../content/lists.js';
import { putModel } from '../content/models.js';
import { createResource } from '../content/resources.js';
import { putSectionMedia, sectionDef } from '../content/sections.js';
import { isAppError } from '../errors/index.js';
import { deleteOrganization, findOrganizationBySlug, hasTokens, insertOrganization } from '../tenancy/organization-repository.js';
import { insertDistribution, insertProject, listProjects } from '../tenancy/project-repository.js';
import { insertSite, updateSiteUrlPatterns } from '../tenancy/site-repository.js';
import { createToken } from '../tenancy/token-repository.js';
import type { Services } from '../services.js';
import { DEMO_AUTHORS, DEMO_LABELS, DEMO_MODELS, DEMO_QUERY, DEMO_SECTIONS, demoEntries } from './demo-content.js';
import { drawDemoImage } from './demo-image.js';
import { demoOwnerInvitation } from './demo-member.js';
import { demoTrafficNdjson } from './demo-traffic.js';
import { ingestLogBatch } from '../ingest/ingest-batch.js';
import { createBackpressure } from '../ingest/backpressure.js';

export interface DemoInfo {
  orgId: string;
  /** True when this call created the organization (first start). */
  created: boolean;
  deliveryToken: string;
  previewToken: string;
  manageToken: string;
  analyticsToken: string;
  projectId: string;
  distributionId: string;
  /** A GraphQL query to try with the delivery token. */
  query: string;
  /** The invitation token of the Studio's sign-in link, while nobody has joined the org. */
  ownerInvitation: string | null;
}

interface DemoTokens {
  orgId: string;
  deliveryToken: string;
  previewToken: string;
  manageToken: string;
  analyticsToken: string;
  projectId: string;
  distributionId: string;
}

export const DEMO_SLUG = 'demo';
export const DEMO_DISTRIBUTION = 'demo-cdn';

type DemoServices = Pick<Services, 'db' | 'bus' | 'blobs' | 'config' | 'queue' | 'logger' | 'assetCaches' | 'enricher' | 'visitorSalts' | 'entryResolver'>;

/** Demo tokens are shown at every start, so they are kept (mode 0600) next to the embedded data. */
const tokenFile = (s: DemoServices, slug: string) => path.join(s.config.dataDir, slug === DEMO_SLUG ? 'demo-tokens.json' : `demo-tokens-${slug}.json`);

async function newTokens(s: DemoServices, orgId: string, where: { projectId: string; distributionId: string }, slug: string): Promise<DemoTokens> {
  const make = async (scope: 'delivery' | 'preview' | 'manage' | 'analytics') => (await createToken(s.db, orgId, { name: `demo ${scope}`, scopes: [scope] })).token;
  const tokens: DemoTokens = {
    orgId,
    deliveryToken: await make('delivery'),
    previewToken: await make('preview'),
    manageToken: await make('manage'),
    analyticsToken: await make('analytics'),
    ...where,
  };
  await mkdir(s.config.dataDir, { recursive: true });
  await writeFile(tokenFile(s, slug), JSON.stringify(tokens, null, 2) + '\n', { mode: 0o600 });
  await chmod(tokenFile(s, slug), 0o600);
  return tokens;
}

/** The demo org exists: its tokens from the token file, or new ones when the file is gone. */
async function existingDemo(s: DemoServices, orgId: string, slug: string): Promise<DemoInfo> {
  let tokens: DemoTokens | null = null;
  try {
    tokens = JSON.parse(await readFile(tokenFile(s, slug), 'utf8')) as DemoTokens;
  } catch {
    // the file is gone (or another data dir): issue new tokens below
  }
  // A token file written before the banner showed the analytics token and project lacks them.
  if (!tokens || tokens.orgId !== orgId || !tokens.analyticsToken || !tokens.projectId) {
    const project = (await listProjects(s.db, orgId, { offset: 0, limit: 1 })).items[0];
    tokens = await newTokens(s, orgId, { projectId: project.id, distributionId: DEMO_DISTRIBUTION }, slug);
  }
  return { ...tokens, created: false, query: DEMO_QUERY, ownerInvitation: await demoOwnerInvitation(s.db, orgId) };
}

/**
 * Seeds the demo organization on first start (embedded mode): models using most field types,
 * sections, authors, labels, a dozen entries, a list, a generated image and a distribution,
 * all through the same domain functions as the management API. Later calls find the org and
 * return its tokens (new ones when the token file is gone). Its tokens are made last: an org
 * without any is what a seeding that crashed part-way left, and is seeded again from scratch —
 * seeding runs in the one embedded process, so no other process is seeding it at that moment.
 */
export async function seedDemo(s: DemoServices, options: { slug?: string } = {}): Promise<DemoInfo> {
  const slug = options.slug ?? DEMO_SLUG;
  const existing = await findOrganizationBySlug(s.db, slug);
  if (existing && (await hasTokens(s.db, existing.id))) return existingDemo(s, existing.id, slug);
  if (existing) {
    s.logger.warn({ orgId: existing.id }, 'the demo organization was left half-seeded by an earlier start; seeding it again');
    await deleteOrganization(s.db, existing.id);
  }

  let org;
  try {
    org = await insertOrganization(s.db, { name: 'Demo', slug });
  } catch (err) {
    // Another instance started at the same moment and is seeding it.
    const raced = isAppError(err) && err.code === 'CONFLICT' ? await findOrganizationBySlug(s.db, slug) : null;
    if (!raced) throw err;
    return existingDemo(s, raced.id, slug);
  }
  const orgId = org.id;

  const site = await insertSite(s.db, orgId, { id: 'web', name: 'Demo website' });
  const project = await insertProject(s.db, orgId, { name: 'Demo website' });
  const distribution = await insertDistribution(s.db, orgId, project.id, { id: DEMO_DISTRIBUTION, name: 'Demo CDN', hostnames: ['cdn.demo.example'] });

  const image = await createAsset({ db: s.db, blobs: s.blobs, maxBytes: s.config.limits.uploadBytes, assetCaches: s.assetCaches }, orgId, Readable.from(await drawDemoImage()), {
    title: 'Circles',
    fileName: 'circles.jpg',
    alt: 'Three overlapping circles on a blue gradient',
    tags: ['demo'],
  });

  for (const [alias, input] of DEMO_MODELS) await putModel(s, orgId, alias, input);
  for (const section of DEMO_SECTIONS) await createResource(s, sectionDef, orgId, section);
  await putSectionMedia(s, orgId, 'news', [image.id]);
  for (const author of DEMO_AUTHORS) await createResource(s, authorDef, orgId, { ...author, imageId: image.id });
  for (const label of DEMO_LABELS) await createResource(s, labelDef, orgId, label);
  const entries = demoEntries(site.id, image.id);
  for (const { id, ...input } of entries) await putEntry(s, orgId, id, input);
  // One published article with an unpublished change: delivery still reads the published version.
  const { id: editedId, status: _published, ...edited } = entries.find((e) => e.id === 'article-6')!;
  await putEntry(s, orgId, editedId, { ...edited, fields: { ...edited.fields, title: 'Open data for cities (updated)' } });
  await createResource(s, listDef, orgId, { id: 'front-page', name: 'Front page', siteId: site.id });
  await putListEntries(s, orgId, 'front-page', [
    { entryId: 'article-1' },
    { entryId: 'article-4' },
    { entryId: 'article-2', startAt: '2026-01-01T00:00:00Z', endAt: '2027-01-01T00:00:00Z' },
  ]);

  // The site's pages are /{section}/{slug}: the sample traffic counts per entry too.
  await updateSiteUrlPatterns(s.db, orgId, site.id, { patterns: [{ pattern: '/{section}/{slug}' }], distributionIds: [] });
  // A day of sample traffic through the real ingest path, so the analytics endpoints answer.
  await ingestLogBatch(s, createBackpressure({ maxPending: s.config.limits.ingestMaxPendingBatches }), {
    orgId,
    distributionId: distribution.id,
    body: demoTrafficNdjson({ host: distribution.hostnames[0], now: new Date() }),
  });

  const tokens = await newTokens(s, orgId, { projectId: project.id, distributionId: distribution.id }, slug);
  return { ...tokens, created: true, query: DEMO_QUERY, ownerInvitation: await demoOwnerInvitation(s.db, orgId) };
}
