import { z } from 'zod';

const entryIds = z.array(z.string().min(1).max(200)).min(1).max(1000);

/** Body of `POST /management/v1/releases`. */
export const releaseInputSchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  entries: entryIds,
});
export type ReleaseInput = z.infer<typeof releaseInputSchema>;

/** Body of `POST /management/v1/releases/:id/entries`: entries added, or taken again at their current version. */
export const releaseEntriesInputSchema = z.strictObject({ entries: entryIds });

/** Body of `POST /management/v1/releases/:id/publish` and `/unpublish` (optional): at once, or at `at`. */
export const releaseRunInputSchema = z.strictObject({ at: z.string().min(1).optional() });
export type ReleaseRunInput = z.infer<typeof releaseRunInputSchema>;
