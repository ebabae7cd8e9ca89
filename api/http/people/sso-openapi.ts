import { ssoSettingsInputSchema } from '../../../shared/people/sso/sso-input.js';
import { ok200, pathParam, pick, ref, zodBody, type OpenApiFragment } from '../openapi/common.js';

const roleName = { type: 'string', description: 'A built-in role (not owner) or custom:<id>' };
const redirect = (description: string) => ({ description, headers: { Location: { schema: { type: 'string' } } } });
/** A refusal on a browser's navigation is a small HTML page saying why; a script asking for JSON gets the envelope. */
const refusal = (description: string) => ({
  description,
  content: { 'application/json': { schema: ref('ErrorEnvelope') }, 'text/html': { schema: { type: 'string' } } },
});

export const sso: OpenApiFragment = {
  schemas: {
    SsoSettings: {
      type: 'object',
      required: ['issuer', 'clientId', 'clientSecretSet', 'allowedDomains', 'defaultRole', 'roleClaim', 'roleMappings', 'ssoOnly', 'redirectUri', 'startUrl'],
      properties: {
        issuer: { type: 'string' },
        clientId: { type: 'string' },
        clientSecretSet: { type: 'boolean', description: 'The secret itself is never answered' },
        allowedDomains: { type: 'array', items: { type: 'string' } },
        defaultRole: roleName,
        roleClaim: { type: ['string', 'null'] },
        roleMappings: { type: 'array', items: { type: 'object', properties: { value: { type: 'string' }, role: roleName } } },
        ssoOnly: { type: 'boolean' },
        redirectUri: { type: 'string', description: "Register it with the issuer's client" },
        startUrl: { type: 'string', description: 'Where a browser starts signing in (add ?returnTo=/path)' },
        updatedAt: { type: 'string', format: 'date-time' },
      },
    },
  },
  paths: {
    '/management/v1/sso': {
      get: {
        summary: "The organization's single sign-on settings (OpenID Connect), without the client secret",
        tags: ['members'], 'x-scope': 'manage',
        responses: { 200: ok200(ref('SsoSettings')), ...pick(401, 403, 404, 429) },
      },
      put: {
        summary: 'Set single sign-on: issuer, client, allowed email domains, default role, role mappings, SSO only',
        description: 'The issuer is discovered before saving (422 when it cannot be). The client secret is kept when absent. Owners, admins and developers.',
        tags: ['members'], 'x-scope': 'manage',
        requestBody: zodBody(ssoSettingsInputSchema),
        responses: { 200: ok200(ref('SsoSettings')), ...pick(400, 401, 403, 413, 422, 429) },
      },
      delete: {
        summary: 'Turn single sign-on off (existing members and sessions stay)',
        tags: ['members'], 'x-scope': 'manage',
        responses: { 200: ok200({ type: 'object' }), ...pick(401, 403, 404, 429) },
      },
    },
    '/auth/sso/{organization}/start': {
      get: {
        summary: "Sign in through the organization's identity provider (authorization code + PKCE): a redirect to it",
        tags: ['auth'], 'x-scope': 'public', security: [],
        parameters: [
          pathParam('organization', { type: 'string' }, "The organization's slug or id"),
          { name: 'returnTo', in: 'query', schema: { type: 'string' }, description: 'A path or URL of this deployment to land on once signed in (default /auth/me)' },
          { name: 'test', in: 'query', schema: { type: 'string', enum: ['1', 'true'] }, description: "A test sign-in: the callback checks the issuer's answer and shows who would sign in with which role, without making a member or opening a session" },
        ],
        responses: { 302: redirect("To the issuer's authorization endpoint"), 400: refusal('returnTo is not of this deployment'), 403: refusal('The organization is suspended'), 404: refusal('No single sign-on for this organization'), 422: refusal('The issuer cannot be discovered') },
      },
    },
    '/auth/sso/callback': {
      get: {
        summary: "The identity provider's redirect back: checks state, nonce and PKCE, creates the member just in time, opens a session",
        description: 'Sets the session cookies of POST /auth/sign-in and redirects to returnTo. An email outside the allowed domains is 403. A test sign-in (started with test=1) answers a page naming the email and role instead, and writes nothing.',
        tags: ['auth'], 'x-scope': 'public', security: [],
        responses: { 200: { description: 'A test sign-in: who would sign in, with which role', content: { 'text/html': { schema: { type: 'string' } } } }, 302: redirect('Signed in: to returnTo'), 401: refusal('Not started in this browser, expired, or not verified'), 403: refusal('The email is not allowed, or the organization is suspended'), 404: refusal('No single sign-on any more'), 422: refusal('The issuer cannot be discovered') },
      },
    },
  },
};
