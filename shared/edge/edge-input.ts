import { z } from 'zod';
import { overlaySchema, presetNameSchema } from '../assets/asset-input.js';
import { MAX_OUTPUT_SIDE } from '../assets/limits.js';
import { isEventPattern } from '../events/event-types.js';
import { PURGE_EVENTS } from './purge-keys.js';
import { templateProblem } from './purge-target.js';

// Input schemas of the edge routes: delivery settings, persisted documents, purge targets.

const side = z.number().int().min(1).max(MAX_OUTPUT_SIDE);
const unique = <T>(list: T[]) => [...new Set(list)];

/** What a publishable key's derivatives may measure; null: any size. */
const publishableImageSizes = z
  .strictObject({
    maxWidth: side.optional(),
    maxHeight: side.optional(),
    widths: z.array(side).min(1).max(50, 'at most 50 widths').transform((w) => unique(w).sort((a, b) => a - b)).optional(),
  })
  .refine((s) => Object.keys(s).length > 0, 'name at least one of maxWidth, maxHeight, widths (or null: any size)')
  .nullable();

/** The presets a publishable key's derivatives must name; null: any or none; [] : originals only. */
const publishableImagePresets = z.array(presetNameSchema).max(100, 'at most 100 presets').transform(unique).nullable();

/** Up to a day of max-age and a week of stale-while-revalidate. */
export const deliverySettingsPatchSchema = z
  .strictObject({
    cacheMaxAge: z.number().int().min(0).max(86_400).optional(),
    cacheStaleWhileRevalidate: z.number().int().min(0).max(604_800).optional(),
    trustedDocuments: z.boolean().optional(),
    publishableImageSizes: publishableImageSizes.optional(),
    publishableImagePresets: publishableImagePresets.optional(),
    /** Drawn over every derivative whose transformation and preset name no overlay; null: none. */
    imageWatermark: overlaySchema.nullable().optional(),
  })
  .refine((p) => Object.keys(p).length > 0, 'name at least one of cacheMaxAge, cacheStaleWhileRevalidate, trustedDocuments, publishableImageSizes, publishableImagePresets, imageWatermark');

const documentText = z.string().min(1, 'must not be empty').max(100_000, 'at most 100,000 characters');
const documentId = z.string().min(1).max(200, 'at most 200 characters');

/**
 * A registration: Folio's own list, a GraphQL Code Generator / Relay manifest (an object of id →
 * text) or an Apollo persisted-query manifest (`format: "apollo-persisted-query-manifest"`).
 */
export const persistedDocumentsInputSchema = z.union([
  z.strictObject({
    documents: z.array(z.strictObject({ id: documentId.optional(), document: documentText, name: z.string().max(200).optional() })).min(1).max(10_000),
  }),
  z.object({
    format: z.literal('apollo-persisted-query-manifest'),
    version: z.literal(1),
    operations: z.array(z.object({ id: documentId, body: documentText, name: z.string().max(200).optional() })).min(1).max(10_000),
  }),
  z.record(documentId, documentText).refine((m) => Object.keys(m).length > 0 && Object.keys(m).length <= 10_000, 'list 1 to 10,000 documents'),
]);
export type PersistedDocumentsInput = z.infer<typeof persistedDocumentsInputSchema>;

const events = z
  .array(z.string().refine(isEventPattern, 'must be an event type, a family such as "entry.*", or "*"'))
  .min(1)
  .max(50)
  .transform((list) => [...new Set(list)]);
const description = z.string().max(500, 'at most 500 characters').nullable();
const apiToken = z.string().min(1).max(500);
const headerName = z.string().regex(/^[A-Za-z0-9-]{1,64}$/, 'a header name: letters, digits and "-"');
const httpHeaders = z
  .record(headerName, z.string().max(2000))
  .refine((h) => Object.keys(h).length <= 20, 'at most 20 headers')
  .refine((h) => !Object.keys(h).some((k) => ['host', 'content-length', 'transfer-encoding', 'connection'].includes(k.toLowerCase())), 'Host, Content-Length, Transfer-Encoding and Connection are set by Folio');
const method = z.string().regex(/^[A-Z]{3,12}$/, 'an HTTP method in capitals, such as PURGE, BAN, POST or DELETE');
const url = z.string().trim().min(1).max(2000);

const common = { events: events.default([...PURGE_EVENTS]), description: description.optional(), enabled: z.boolean().optional() };


export const purgeTargetInputSchema = z.discriminatedUnion('provider', [
  z
    .strictObject({ provider: z.literal('http'), method: method.default('PURGE'), url, headers: httpHeaders.default({}), ...common })
    .superRefine((t, ctx) => {
      const problem = templateProblem(t);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['url'] });
    }),
  z.strictObject({ provider: z.literal('fastly'), serviceId: z.string().regex(/^[A-Za-z0-9]{1,64}$/, 'a Fastly service id'), apiToken, softPurge: z.boolean().default(false), ...common }),
  z.strictObject({ provider: z.literal('cloudflare'), zoneId: z.string().regex(/^[0-9a-f]{32}$/i, 'a Cloudflare zone id (32 hexadecimal characters)'), apiToken, ...common }),
]);
export type PurgeTargetInput = z.infer<typeof purgeTargetInputSchema>;

/** PATCH: the common members, and a provider's token or a generic target's request. */
export const purgeTargetPatchSchema = z
  .strictObject({
    events: events.optional(),
    description: description.optional(),
    enabled: z.boolean().optional(),
    apiToken: apiToken.optional(),
    method: method.optional(),
    url: url.optional(),
    headers: httpHeaders.optional(),
  })
  .refine((p) => Object.keys(p).length > 0, 'name at least one member to change');
export type PurgeTargetPatch = z.infer<typeof purgeTargetPatchSchema>;
