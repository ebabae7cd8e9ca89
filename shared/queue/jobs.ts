/**
 * Every job the workers run: one map of job name to payload and result. Each payload carries
 * the org, the request that caused it and a payload version, so a worker can refuse a payload
 * shape it does not know.
 */
export interface JobBase {
  orgId: string;
  requestId?: string;
  version: 1;
}

export interface JobMap {
  /** Test and health-check job: echoes its input. */
  echo: { payload: JobBase & { value: unknown; failTimes?: number; sleepMs?: number }; result: { value: unknown; attempt: number } };
  /** Moves one spooled CDN log batch into ClickHouse (shared/ingest/process-batch.ts). */
  'log-ingest': { payload: JobBase & { batchId: string }; result: { inserted: boolean } };
  /** Writes one image derivative to the blob store (workers/image-transform.ts). */
  'image-transform': {
    payload: JobBase & { sourceKey: string; derivativeKey: string; ops: string; ext: string };
    result: { derivativeKey: string; size: number; contentType: string; transformed: boolean };
  };
  /** Publishes every SCHEDULED entry whose time has come, in all orgs (`orgId: '*'`); re-enqueues itself. */
  'entry-publish-scheduled': { payload: JobBase; result: { published: number } };
}

export type JobName = keyof JobMap;
export type JobPayload<N extends JobName> = JobMap[N]['payload'];
export type JobResult<N extends JobName> = JobMap[N]['result'];

/** Every queue, for metrics and readiness (the compiler keeps it complete: see the check below). */
export const JOB_NAMES = ['echo', 'log-ingest', 'image-transform', 'entry-publish-scheduled'] as const satisfies readonly JobName[];
type Missing = Exclude<JobName, (typeof JOB_NAMES)[number]>;
// A job added to JobMap but not to JOB_NAMES fails to compile here.
export const JOB_NAMES_COMPLETE: Missing extends never ? true : never = true;
