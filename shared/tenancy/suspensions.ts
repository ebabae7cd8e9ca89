import type { EventBus } from '../adapters/bus/index.js';
import type { Queryable } from '../adapters/db/index.js';
import { forbidden, type AppError } from '../errors/index.js';
import { listSuspendedOrganizations } from './organization-repository.js';

/**
 * How often each instance re-reads the suspended organizations: a suspension reaches every
 * instance within this time (plus one query) even when the bus message is lost.
 */
export const SUSPENSIONS_REFRESH_MS = 2000;

/**
 * The suspended organizations, held in memory by every instance so that each door (REST,
 * GraphQL, images, files, embeds, ingest) refuses their requests without a query. Re-read every
 * couple of seconds and at once on the `organization-suspended` bus message.
 */
export interface Suspensions {
  /** The 403 to answer for a request of `orgId`, or null when the organization is not suspended. */
  refusal(orgId: string): AppError | null;
  /** Reads the list again now (the bus handler; tests). */
  refresh(): Promise<void>;
  close(): void;
}

export async function createSuspensions(deps: { db: Queryable; bus: EventBus; onError: (err: unknown) => void }): Promise<Suspensions> {
  let messages = new Map<string, string>();
  let running: Promise<void> | null = null;

  const read = async () => {
    const rows = await listSuspendedOrganizations(deps.db);
    messages = new Map(rows.map((r) => [r.id, messageOf(r)]));
  };
  const refresh = () => {
    running ??= read()
      .catch(deps.onError)
      .finally(() => {
        running = null;
      });
    return running;
  };

  await read();
  const timer = setInterval(() => void refresh(), SUSPENSIONS_REFRESH_MS);
  timer.unref();
  // A read already under way may have started before the change: read again after it.
  const unsubscribe = deps.bus.subscribe('organization-suspended', () => void (running ?? Promise.resolve()).then(refresh));

  return {
    refusal(orgId) {
      const message = messages.get(orgId);
      return message === undefined ? null : forbidden(message);
    },
    refresh: async () => {
      await running;
      await refresh();
    },
    close() {
      clearInterval(timer);
      unsubscribe();
    },
  };
}

function messageOf(org: { reason: string | null; deleting: boolean }): string {
  if (org.deleting) return 'This organization is being deleted; its requests are refused.';
  return org.reason ? `This organization is suspended: ${org.reason}` : 'This organization is suspended; contact the platform operator.';
}

/** Throws the 403 of a suspended organization (the doors that name the organization in their URL). */
export function assertNotSuspended(suspensions: Suspensions, orgId: string): void {
  const refusal = suspensions.refusal(orgId);
  if (refusal) throw refusal;
}
