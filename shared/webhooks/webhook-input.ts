import { z } from 'zod';
import { isEventPattern } from '../events/event-types.js';

/** Input schemas of the webhook routes; the URL's reachability is checked by the service. */

const url = z.string().trim().min(1, 'must not be empty').max(2000, 'at most 2,000 characters');
const events = z
  .array(z.string().refine(isEventPattern, 'must be an event type, a family such as "entry.*", or "*"'))
  .min(1, 'list at least one event type, or "*"')
  .max(50)
  .transform((list) => [...new Set(list)]);
const models = z.array(z.string().min(1).max(64)).min(1).max(100).nullable();
const description = z.string().max(500, 'at most 500 characters').nullable();

export const webhookInputSchema = z.strictObject({
  url,
  events,
  models: models.optional(),
  description: description.optional(),
  enabled: z.boolean().optional(),
});
export type WebhookInput = z.infer<typeof webhookInputSchema>;

/** PATCH: any member; `enabled: true` re-enables a webhook disabled after failures. */
export const webhookPatchSchema = z.strictObject({
  url: url.optional(),
  events: events.optional(),
  models: models.optional(),
  description: description.optional(),
  enabled: z.boolean().optional(),
});
export type WebhookPatch = z.infer<typeof webhookPatchSchema>;
