import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { describeFailure } from './errors.js';

/**
 * Entry point of one pool thread (see thread-pool.ts): loads the handler module once, then runs
 * one task at a time and answers with the result or a serialisable failure.
 */
interface ThreadTask {
  payload: unknown;
  ctx: { jobId: string; attempt: number };
}

const { module, exportName } = workerData as { module: string; exportName: string };
const port = parentPort;
if (!port) throw new Error('thread-worker.ts runs only inside a worker thread');

const loaded = (await import(pathToFileURL(module).href)) as Record<string, unknown>;
const handler = loaded[exportName];
if (typeof handler !== 'function') throw new Error(`${module} exports no function named "${exportName}"`);

port.on('message', async (task: ThreadTask) => {
  try {
    const result: unknown = await (handler as (p: unknown, c: ThreadTask['ctx']) => Promise<unknown>)(task.payload, task.ctx);
    port.postMessage({ ok: true, result });
  } catch (err) {
    port.postMessage({ ok: false, failure: describeFailure(err) });
  }
});
