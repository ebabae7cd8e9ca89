import { z } from 'zod';

// Input of `PUT /management/v1/sso`: the route parses with it, the OpenAPI document derives from it.

const roleName = z.string().trim().min(1).max(100).describe('A built-in role (not owner) or a custom role (its name or custom:<id>)');
const domain = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/, 'an email domain such as example.com');

export const ssoSettingsInputSchema = z.strictObject({
  issuer: z.string().trim().max(500).url().describe("The OpenID Connect issuer (its /.well-known/openid-configuration is read)"),
  clientId: z.string().min(1).max(500),
  clientSecret: z.string().min(1).max(2000).optional().describe('Required the first time; absent later, the stored secret is kept. Never answered.'),
  allowedDomains: z.array(domain).min(1).max(100).describe('Email domains whose people may sign in (others are refused)'),
  defaultRole: roleName.describe('The role of a member created at first sign-in when no mapping applies'),
  roleClaim: z.string().trim().min(1).max(100).nullable().default(null).describe('The claim (string or list of strings) read for roleMappings, e.g. "groups"'),
  roleMappings: z
    .array(z.strictObject({ value: z.string().min(1).max(200), role: roleName }))
    .max(100)
    .default([])
    .describe('The first mapping whose value the claim holds gives the role'),
  ssoOnly: z.boolean().default(false).describe("Refuse passwords for this organization's members"),
});
export type SsoSettingsInput = z.output<typeof ssoSettingsInputSchema>;

export const ssoStartQuerySchema = z.object({
  returnTo: z.string().max(2000).optional().describe('Where to go once signed in: a path or URL of this deployment (default /auth/me)'),
  test: z
    .enum(['1', 'true'])
    .optional()
    .describe("A test sign-in: the issuer's answer is checked and the page says who would sign in with which role; no member is made and no session opened"),
});
