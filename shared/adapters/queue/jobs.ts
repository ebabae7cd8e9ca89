/**
 * Every payload carries the org, the request that caused it and a payload version, so a worker
 * can refuse a payload shape it does not know.
 */
export interface JobBase {
  orgId: string;
  requestId?: string;
  version: 1;
}

/**
 * Job name → payload and result. Empty here: each job's file in its domain's folder
 * (`shared/<domain>/*-job.ts`) adds its own entry (`declare module '../adapters/queue/jobs.js'`),
 * next to its handler and options, and the queue adapters are generic over whatever the map holds.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface JobMap {}

export type JobName = keyof JobMap;
export type JobPayload<N extends JobName> = JobMap[N] extends { payload: infer P extends JobBase } ? P : never;
export type JobResult<N extends JobName> = JobMap[N] extends { result: infer R } ? R : never;
