import type { JobBase } from '../adapters/queue/jobs.js';
import type { JobDefinition } from '../job-definition.js';
import { deleteOrganizationData, recordDeletionError, type RemovedCounts } from './organization-deletion.js';

declare module '../adapters/queue/jobs.js' {
  interface JobMap {
    /** Removes a deleted organization's rows, objects and analytics rows (DELETE /admin/v1/organizations/:id). */
    'organization-delete': { payload: JobBase; result: RemovedCounts };
  }
}

export const organizationDeleteJob: JobDefinition<'organization-delete'> = {
  handler: (services) => async (payload) => {
    try {
      const removed = await deleteOrganizationData(services, payload.orgId);
      services.logger.info({ orgId: payload.orgId, requestId: payload.requestId, removed }, 'organization deleted');
      return removed;
    } catch (err) {
      // the status route shows why the deletion has not finished
      await recordDeletionError(services.db, payload.orgId, err instanceof Error ? err.message : String(err)).catch(() => undefined);
      throw err;
    }
  },
};
