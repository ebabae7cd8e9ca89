import { acceptInvitationInputSchema, secondFactorCodeSchema, invitationInputSchema, memberPatchSchema, passwordResetInputSchema, passwordResetRequestSchema, recoveryCodesInputSchema, signInInputSchema } from '../../../shared/people/people-input.js';
import { BUILT_IN_ROLES, customRoleInputSchema } from '../../../shared/people/roles.js';
import { personalTokenInputSchema } from '../../../shared/tenancy/tenancy-input.js';
import { created201, ok200, pagingParameters, pathParam, pick, ref, zodBody, type OpenApiFragment } from '../openapi/common.js';

const dateTime = { type: 'string', format: 'date-time' };
const nullableDateTime = { type: ['string', 'null'], format: 'date-time' };
const roleName = { type: 'string', description: `A built-in role (${BUILT_IN_ROLES.join(', ')}) or custom:<id>` };
const publicAuth = { tags: ['auth'], 'x-scope': 'public' as const, security: [] };
/** Member routes: a session, as "Authorization: Bearer folio_s_…" or the folio_session cookie (writes with X-CSRF-Token). */
const memberAuth = { tags: ['auth'], 'x-scope': 'member' as const, security: [{ bearerAuth: [] }, { sessionCookie: [] }] };
/** Account routes (sessions, second factor, personal tokens): a session only, not a personal access token. */
const sessionAuth = { ...memberAuth, description: 'A signed-in session only: a personal access token is refused (403).' };

export const people: OpenApiFragment = {
  securitySchemes: {
    sessionCookie: { type: 'apiKey', in: 'cookie', name: 'folio_session', description: 'A browser session; every write must also send X-CSRF-Token (the csrfToken of sign-in).' },
  },
  schemas: {
    Member: {
      type: 'object',
      properties: { id: { type: 'string' }, email: { type: 'string' }, name: { type: ['string', 'null'] }, role: roleName, source: { type: 'string', enum: ['invitation', 'sso'] }, createdAt: dateTime },
    },
    Invitation: {
      type: 'object',
      required: ['id', 'email', 'role', 'expiresAt', 'url', 'token', 'emailed'],
      properties: {
        id: { type: 'string' },
        email: { type: 'string' },
        role: roleName,
        expiresAt: dateTime,
        url: { type: 'string', description: 'The link to hand over (also emailed when SMTP_URL is set)' },
        token: { type: 'string', description: 'The token of the link, for POST /auth/invitations/accept' },
        emailed: { type: 'boolean' },
      },
    },
    Session: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        organizationId: { type: 'string' },
        method: { type: 'string', enum: ['password', 'sso'] },
        userAgent: { type: ['string', 'null'] },
        clientAddress: { type: ['string', 'null'] },
        createdAt: dateTime,
        expiresAt: dateTime,
        revokedAt: nullableDateTime,
        current: { type: 'boolean' },
      },
    },
    SignedIn: {
      type: 'object',
      required: ['token', 'csrfToken', 'session', 'member'],
      properties: {
        token: { type: 'string', description: 'folio_s_… — a session bearer for scripts ("Authorization: Bearer …"); the browser gets it as the HttpOnly folio_session cookie' },
        csrfToken: { type: 'string', description: 'Send as X-CSRF-Token with every write authenticated by the cookie (also in the folio_csrf cookie)' },
        session: ref('Session'),
        member: { type: 'object', properties: { id: { type: 'string' }, email: { type: 'string' }, organizationId: { type: 'string' }, role: roleName } },
      },
    },
    Me: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        email: { type: 'string' },
        name: { type: ['string', 'null'] },
        organization: { type: 'object', properties: { id: { type: 'string' }, slug: { type: 'string' } } },
        role: roleName,
        rules: { type: 'object', description: 'What the role allows (models, locales, assets, settings)' },
        sessionId: { type: 'string', description: "The session's id (a personal access token's id when signed in with one)" },
        credential: { type: 'string', enum: ['session', 'personal-token'] },
        secondFactor: { type: 'boolean', description: 'Whether sign-in asks for a TOTP code' },
        memberships: { type: 'array', items: { type: 'object', properties: { organizationId: { type: 'string' }, slug: { type: 'string' }, name: { type: 'string' }, role: roleName } } },
      },
    },
    PersonalToken: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        name: { type: 'string' },
        createdAt: dateTime,
        revokedAt: nullableDateTime,
        lastUsedAt: { ...nullableDateTime, description: 'Up to about a minute behind' },
        expiresAt: dateTime,
        token: { type: 'string', description: 'folio_… — in the answer of its creation only' },
      },
    },
    Role: {
      type: 'object',
      properties: { id: { type: 'string', description: 'The built-in name, or custom:<id>' }, name: { type: 'string' }, builtIn: { type: 'boolean' }, rules: { type: 'object' }, createdAt: dateTime },
    },
  },
  paths: {
    '/management/v1/invitations': {
      post: {
        summary: 'Invite a person by email with a role (a link valid 7 days; emailed when SMTP_URL is set)',
        tags: ['members'], 'x-scope': 'manage',
        requestBody: zodBody(invitationInputSchema),
        responses: { 201: created201(ref('Invitation')), ...pick(400, 401, 403, 413, 422, 429) },
      },
    },
    '/management/v1/members': {
      get: { summary: "The organization's members", tags: ['members'], 'x-scope': 'manage', parameters: pagingParameters, responses: { 200: ok200({ type: 'array', items: ref('Member') }, true), ...pick(400, 401, 403, 429) } },
    },
    '/management/v1/members/{id}': {
      patch: {
        summary: "Change a member's role (only an owner makes or changes owners; the last owner keeps the role: 409)",
        tags: ['members'], 'x-scope': 'manage',
        parameters: [pathParam('id')],
        requestBody: zodBody(memberPatchSchema),
        responses: { 200: ok200(ref('Member')), ...pick(400, 401, 403, 404, 409, 413, 422, 429) },
      },
      delete: {
        summary: 'Remove a member: their sessions and personal access tokens in this organization are revoked (every instance at once, at most 5 s)',
        description: 'Only an owner removes an owner; the last owner cannot be removed (409). Audited as member.removed.',
        tags: ['members'], 'x-scope': 'manage',
        parameters: [pathParam('id')],
        responses: { 200: ok200({ allOf: [ref('Member'), { type: 'object', properties: { removed: { type: 'boolean' } } }] }), ...pick(401, 403, 404, 409, 429) },
      },
    },
    '/management/v1/roles': {
      get: { summary: 'Built-in and custom roles with their rules', tags: ['members'], 'x-scope': 'manage', responses: { 200: ok200({ type: 'array', items: ref('Role') }), ...pick(401, 403, 429) } },
      post: {
        summary: 'Create a custom role: per model read/create/update/publish/delete (ownEntriesOnly), hidden and read-only fields, locales, assets, settings areas',
        tags: ['members'], 'x-scope': 'manage',
        requestBody: zodBody(customRoleInputSchema),
        responses: { 201: created201(ref('Role')), ...pick(400, 401, 403, 409, 413, 422, 429) },
      },
    },
    '/auth/invitations/accept': {
      post: {
        summary: 'Accept an invitation: set the password (or give the existing one) and join',
        ...publicAuth,
        requestBody: zodBody(acceptInvitationInputSchema),
        responses: { 200: ok200({ type: 'object', properties: { memberId: { type: 'string' }, email: { type: 'string' }, organizationId: { type: 'string' }, role: roleName } }), ...pick(400, 401, 413, 429) },
      },
    },
    '/auth/sign-in': {
      post: {
        summary: 'Sign in with email and password: a session cookie (HttpOnly, SameSite=Lax, Secure behind TLS) and a session bearer',
        description:
          'At most 10 failed sign-ins per account within 15 minutes, and a limit per client address: past either, 429 with Retry-After. ' +
          'With a second factor, a missing or wrong `code` is 401 with the header Folio-Second-Factor: required | invalid (and counts as a failed sign-in).',
        ...publicAuth,
        requestBody: zodBody(signInInputSchema),
        responses: { 200: ok200(ref('SignedIn')), ...pick(400, 401, 403, 413, 429) },
      },
    },
    '/auth/sign-out': {
      post: { summary: 'End the current session (every instance within 5 s)', ...sessionAuth, responses: { 200: ok200({ type: 'object' }), ...pick(401, 403, 429) } },
    },
    '/auth/me': {
      get: { summary: 'The signed-in member, role and memberships', ...memberAuth, responses: { 200: ok200(ref('Me')), ...pick(401, 403, 429) } },
    },
    '/auth/sessions': {
      get: { summary: "The member's live sessions", ...sessionAuth, responses: { 200: ok200({ type: 'array', items: ref('Session') }), ...pick(401, 403, 429) } },
    },
    '/auth/sessions/{id}': {
      delete: { summary: 'Revoke one of your sessions (every instance within 5 s)', ...sessionAuth, parameters: [pathParam('id')], responses: { 200: ok200({ type: 'object' }), ...pick(401, 403, 404, 429) } },
    },
    '/auth/totp': {
      get: {
        summary: "Whether the member's second factor (TOTP) is on, and how many recovery codes are left",
        ...sessionAuth,
        responses: { 200: ok200({ type: 'object', properties: { enabled: { type: 'boolean' }, recoveryCodesLeft: { type: 'integer' } } }), ...pick(401, 403, 429) },
      },
    },
    '/auth/totp/enroll': {
      post: {
        summary: 'Start enrolling a second factor: a TOTP secret and its otpauth:// URL (on once confirmed)',
        ...sessionAuth,
        responses: { 200: ok200({ type: 'object', properties: { secret: { type: 'string' }, otpauthUrl: { type: 'string' } } }), ...pick(401, 403, 409, 429) },
      },
    },
    '/auth/totp/confirm': {
      post: {
        summary: 'Confirm enrollment with a first code: sign-in then asks for a code; answers ten one-time recovery codes',
        ...sessionAuth,
        requestBody: zodBody(secondFactorCodeSchema),
        responses: {
          200: ok200({ type: 'object', properties: { enabled: { type: 'boolean' }, recoveryCodes: { type: 'array', items: { type: 'string' } } } }),
          ...pick(400, 401, 403, 409, 413, 422, 429),
        },
      },
    },
    '/auth/totp/disable': {
      post: {
        summary: 'Turn the second factor off with a current code or a recovery code',
        ...sessionAuth,
        requestBody: zodBody(secondFactorCodeSchema),
        responses: { 200: ok200({ type: 'object' }), ...pick(400, 401, 403, 409, 413, 422, 429) },
      },
    },
    '/auth/totp/recovery-codes': {
      post: {
        summary: 'Replace the recovery codes with ten new ones (shown once), proven with the current password or a second-factor code',
        ...sessionAuth,
        description: `${sessionAuth.description} Attempts are counted per account: past the failed-authentication limit, 429 with Retry-After. Audited as member.recovery_codes_regenerated.`,
        requestBody: zodBody(recoveryCodesInputSchema),
        responses: { 200: ok200({ type: 'object', properties: { recoveryCodes: { type: 'array', items: { type: 'string' } } } }), ...pick(400, 401, 403, 409, 413, 422, 429) },
      },
    },
    '/auth/tokens': {
      get: { summary: "The member's personal access tokens in this organization", ...sessionAuth, responses: { 200: ok200({ type: 'array', items: ref('PersonalToken') }), ...pick(401, 403, 429) } },
      post: {
        summary: 'Create a personal access token: it acts as you, with your role at the time of use, until it expires',
        ...sessionAuth,
        requestBody: zodBody(personalTokenInputSchema),
        responses: { 201: created201(ref('PersonalToken')), ...pick(400, 401, 403, 413, 429) },
      },
    },
    '/auth/tokens/{id}': {
      delete: { summary: 'Revoke one of your personal access tokens (every instance within 5 s)', ...sessionAuth, parameters: [pathParam('id')], responses: { 200: ok200({ type: 'object' }), ...pick(401, 403, 404, 429) } },
    },
    '/auth/password-reset': {
      post: {
        summary: 'Email a password-reset link (valid an hour); the answer is the same whether the account exists',
        ...publicAuth,
        requestBody: zodBody(passwordResetRequestSchema),
        responses: { 202: { description: 'Accepted', content: { 'application/json': { schema: { type: 'object' } } } }, ...pick(400, 413, 429) },
      },
    },
    '/auth/password-reset/confirm': {
      post: {
        summary: "Set a new password with the emailed token; ends every session of the account",
        ...publicAuth,
        requestBody: zodBody(passwordResetInputSchema),
        responses: { 200: ok200({ type: 'object' }), ...pick(400, 401, 413, 429) },
      },
    },
  },
};
