import { z } from 'zod';

// A shared link's body: a name for the list, and when it stops working (30 days by default, at
// most a year: a link outlives nobody's memory of it).

export const SHARED_LINK_DEFAULT_DAYS = 30;
export const SHARED_LINK_MAX_DAYS = 366;
const DAY_MS = 86_400_000;

export const sharedLinkInputSchema = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  expiresAt: z.iso
    .datetime({ offset: true })
    .optional()
    .refine((v) => v === undefined || Date.parse(v) > Date.now(), 'must lie in the future')
    .refine((v) => v === undefined || Date.parse(v) <= Date.now() + SHARED_LINK_MAX_DAYS * DAY_MS, `must lie within ${SHARED_LINK_MAX_DAYS} days`),
});
export type SharedLinkInput = z.output<typeof sharedLinkInputSchema>;

export const expiryOf = (input: SharedLinkInput, now = Date.now()): Date =>
  new Date(input.expiresAt !== undefined ? Date.parse(input.expiresAt) : now + SHARED_LINK_DEFAULT_DAYS * DAY_MS);
