import { auditRetentionSchema } from '../../../shared/audit/audit-repository.js';
import { ok200, pagingParameters, pick, ref, zodBody, type OpenApiFragment } from '../openapi/common.js';

const query = (name: string, description: string, schema: Record<string, unknown> = { type: 'string' }) => ({ name, in: 'query', schema, description });
const filters = [
  query('actor', "A member's or token's id"),
  query('actorType', 'member, token or system', { type: 'string', enum: ['member', 'token', 'system'] }),
  query('action', 'An action (entry.published) or a family (entry.*)'),
  query('subjectType', 'entry, model, asset, token, member, invitation, role, session, webhook, purge_target, locale, site, organization, …'),
  query('subjectId', "The subject's id"),
  query('from', 'Rows at or after this time (RFC 3339)', { type: 'string', format: 'date-time' }),
  query('to', 'Rows before this time (RFC 3339)', { type: 'string', format: 'date-time' }),
];

export const audit: OpenApiFragment = {
  schemas: {
    AuditRow: {
      type: 'object',
      required: ['id', 'at', 'actor', 'action', 'subject', 'changes', 'requestId', 'clientAddress'],
      properties: {
        id: { type: 'string' },
        at: { type: 'string', format: 'date-time' },
        actor: {
          type: 'object',
          properties: { type: { type: 'string', enum: ['member', 'token', 'system'] }, id: { type: ['string', 'null'] }, name: { type: ['string', 'null'], description: "The member's email or the token's name" } },
        },
        action: { type: 'string', description: 'Named like the events: entry.published, member.invited, token.created, …' },
        subject: { type: 'object', properties: { type: { type: 'string' }, id: { type: 'string' } } },
        changes: { description: 'Field names; before/after for settings; never a secret', type: ['object', 'null'] },
        requestId: { type: ['string', 'null'] },
        clientAddress: { type: ['string', 'null'] },
        userAgent: { type: ['string', 'null'] },
      },
    },
  },
  paths: {
    '/management/v1/audit-log': {
      get: {
        summary: 'Every change on the management plane, newest first (append-only; kept for the retention setting, 365 days by default)',
        tags: ['audit'], 'x-scope': 'manage',
        parameters: [...filters, ...pagingParameters],
        responses: { 200: ok200({ type: 'array', items: ref('AuditRow') }, true), ...pick(400, 401, 403, 429) },
      },
    },
    '/management/v1/audit-log/export': {
      get: {
        summary: 'The audit rows the filters match as NDJSON, oldest first',
        tags: ['audit'], 'x-scope': 'manage',
        parameters: filters,
        responses: { 200: { description: 'One AuditRow per line', content: { 'application/x-ndjson': { schema: ref('AuditRow') } } }, ...pick(400, 401, 403, 429) },
      },
    },
    '/management/v1/audit-log/settings': {
      get: { summary: 'The retention of the audit log', tags: ['audit'], 'x-scope': 'manage', responses: { 200: ok200({ type: 'object', properties: { retentionDays: { type: 'integer' } } }), ...pick(401, 403, 429) } },
      put: {
        summary: 'Set the retention (days): older rows are deleted, the only deletion of the log',
        tags: ['audit'], 'x-scope': 'manage',
        requestBody: zodBody(auditRetentionSchema),
        responses: { 200: ok200({ type: 'object', properties: { retentionDays: { type: 'integer' } } }), ...pick(400, 401, 403, 413, 429) },
      },
    },
  },
};
