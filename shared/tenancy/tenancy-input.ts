import { z } from 'zod';
import { MAX_PATTERN_SEGMENTS, patternProblem } from '../analytics/url-patterns.js';
import { SCOPES } from './scopes.js';

/**
 * Input schemas of the platform's tenancy routes (organizations, tokens, sites, projects and
 * their distributions): the routes parse with them and the OpenAPI document is derived from them.
 */

const clientId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, "_" or "-", at most 64');

export const organizationInputSchema = z.object({
  name: z.string().trim().min(1).max(200),
  slug: z.string().regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, 'lowercase letters, digits and inner dashes, 1–63 characters'),
});

/** Longest a token may live, or overlap its replacement: a year; an overlap, 30 days. */
const MAX_TOKEN_LIFETIME_MS = 366 * 86_400_000;
const MAX_OVERLAP_SECONDS = 30 * 86_400;

/** An expiry: an RFC 3339 date-time with its offset, in the future, within a year. */
export const expiresAtSchema = z.iso
  .datetime({ offset: true, message: 'an RFC 3339 date-time with an offset, e.g. 2030-01-01T00:00:00Z' })
  .transform((s) => new Date(s))
  .refine((d) => d.getTime() > Date.now(), 'must be in the future')
  .refine((d) => d.getTime() <= Date.now() + MAX_TOKEN_LIFETIME_MS, 'at most a year from now');

export const tokenInputSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    /** What the token may do, by scope; or give `role` instead. */
    scopes: z
      .array(z.enum(SCOPES))
      .min(1)
      .transform((s) => [...new Set(s)])
      .optional(),
    /** A role the token acts under instead of scopes: a built-in role (not owner) or a custom role (its name or custom:<id>). */
    role: z.string().trim().min(1).max(100).optional(),
    /**
     * A publishable key (`folio_pk_…`): published content only, safe in a web page and in the
     * query string of GET /graphql (`access_token`), so a CDN caches one URL for every visitor.
     */
    publishable: z.boolean().default(false),
    /** After this the token answers 401 saying it expired; absent: it never expires. */
    expiresAt: expiresAtSchema.optional(),
  })
  .refine((t) => (t.scopes === undefined) !== (t.role === undefined), {
    message: 'give either scopes or a role',
    path: ['scopes'],
  })
  .refine((t) => !t.publishable || (t.scopes?.length === 1 && t.scopes[0] === 'delivery'), {
    message: 'a publishable key has the "delivery" scope and no other',
    path: ['scopes'],
  });

/** `POST /auth/tokens`: a member's personal access token, which must expire. */
export const personalTokenInputSchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  expiresAt: expiresAtSchema.describe('Required: an RFC 3339 date-time, in the future, at most a year from now'),
});

export const tokenRotationInputSchema = z.strictObject({
  /** How long the old token keeps working, in seconds (0: it stops at once). @default 3600 */
  overlapSeconds: z.number().int().min(0).max(MAX_OVERLAP_SECONDS).default(3600),
  /** The new token's expiry; absent: the old token's lifetime again (none if it had none). */
  expiresAt: expiresAtSchema.optional(),
});

/** `POST /admin/v1/organizations/{id}/tokens`: a new manage token for an organization. */
export const adminTokenInputSchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  expiresAt: expiresAtSchema.optional(),
});

/** `POST /admin/v1/organizations/{id}/suspend`. */
export const suspensionInputSchema = z.strictObject({
  /** Shown to the organization's callers in every 403. */
  reason: z.string().trim().min(1).max(500).optional(),
});

export const siteInputSchema = z.object({
  id: clientId.optional(),
  name: z.string().trim().min(1).max(200),
  externalId: z.string().max(200).optional(),
});

/**
 * `PUT /management/v1/sites/{siteId}/url-patterns`: how the site's page paths name its entries,
 * and which distributions serve it (none: all of the organization's).
 */
export const siteUrlPatternsInputSchema = z.strictObject({
  patterns: z
    .array(
      z.strictObject({
        pattern: z
          .string()
          .max(MAX_PATTERN_SEGMENTS * 64)
          .superRefine((p, ctx) => {
            const problem = patternProblem(p);
            if (problem) ctx.addIssue({ code: 'custom', message: problem });
          }),
        model: z.string().min(1).max(64).optional(),
      }),
    )
    .max(50, 'at most 50 patterns'),
  distributionIds: z.array(clientId).max(100, 'at most 100 distributions').default([]),
});

export const projectInputSchema = z.object({ name: z.string().trim().min(1).max(200) });

const hostname = z
  .string()
  .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i, 'must be a host name');

export const distributionInputSchema = z.object({
  id: clientId.optional(),
  name: z.string().trim().min(1).max(200),
  hostnames: z.array(hostname).max(100).default([]),
});

/** A web origin as browsers send it: http(s), a host, an optional port — no path, query or credentials. */
const webOrigin = z
  .string()
  .trim()
  .max(300)
  .transform((raw, ctx) => {
    let url: URL | null = null;
    try {
      url = new URL(raw);
    } catch {
      // reported below
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search || url.hash || url.username || url.password) {
      ctx.addIssue({ code: 'custom', message: `"${raw}" is not an origin such as https://www.example.com or http://localhost:5173` });
      return z.NEVER;
    }
    return url.origin;
  });

/** `PUT /management/v1/allowed-origins`: a list (pages elsewhere are refused), or null for any origin. */
export const analyticsSettingsInputSchema = z.strictObject({
  clientIps: z.enum(['full', 'truncated', 'none'], { message: 'must be "full", "truncated" or "none"' }),
});

export const allowedOriginsInputSchema = z.strictObject({
  allowedOrigins: z
    .array(webOrigin)
    .max(100, 'at most 100 origins')
    .nullable()
    .transform((list) => (list === null ? null : [...new Set(list)])),
});

/** `DELETE /management/v1/organization`: the organization's slug, typed to confirm. */
export const organizationDeletionInputSchema = z.strictObject({
  confirm: z.string().min(1, "type the organization's slug to confirm").max(63),
});
