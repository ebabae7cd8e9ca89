import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { AppError } from '../../errors/index.js';
import { PermanentJobError, QueueClosedError, type Failure } from './errors.js';
import type { JobContext } from './job-queue.js';

export interface ThreadPoolOptions {
  /** Absolute path of the handler module. */
  module: string;
  exportName: string;
  /** Threads at most; each runs one task at a time. */
  size: number;
}

export interface ThreadPool {
  run(payload: unknown, ctx: JobContext): Promise<unknown>;
  /** Rejects queued tasks and terminates the threads (running tasks fail). */
  close(): Promise<void>;
}

interface Task {
  payload: unknown;
  ctx: JobContext;
  resolve(value: unknown): void;
  reject(err: Error): void;
}

interface Slot {
  worker: Worker;
  task?: Task;
  dead?: boolean;
}

type ThreadReply = { ok: true; result: unknown } | { ok: false; failure: Failure };

/**
 * A small pool of worker threads for CPU-heavy handlers. Threads start on demand, stay for the
 * next task and are unref'd while idle (an idle pool never holds the process open). A thread
 * that crashes (uncaught error, `process.exit`) fails its task and is replaced by a fresh one
 * for the next task; the queue's retry policy decides what happens to the job.
 */
export function createThreadPool(options: ThreadPoolOptions): ThreadPool {
  const idle: Slot[] = [];
  const all = new Set<Slot>();
  const pending: Task[] = [];
  let closing = false;

  const dispatch = () => {
    while (pending.length > 0 && !closing) {
      let slot = idle.pop();
      if (!slot) {
        if (all.size >= options.size) return;
        slot = spawn();
      }
      const task = pending.shift()!;
      slot.task = task;
      slot.worker.ref();
      slot.worker.postMessage({ payload: task.payload, ctx: task.ctx });
    }
  };

  const retire = (slot: Slot, err: Error) => {
    if (slot.dead) return;
    slot.dead = true;
    all.delete(slot);
    const i = idle.indexOf(slot);
    if (i >= 0) idle.splice(i, 1);
    const task = slot.task;
    slot.task = undefined;
    task?.reject(err);
    dispatch();
  };

  const spawn = (): Slot => {
    const slot: Slot = { worker: startWorker(options) };
    all.add(slot);
    slot.worker.on('message', (reply: ThreadReply) => {
      const task = slot.task;
      slot.task = undefined;
      slot.worker.unref();
      idle.push(slot);
      if (task) {
        if (reply.ok) task.resolve(reply.result);
        else task.reject(rebuildError(reply.failure));
      }
      dispatch();
    });
    slot.worker.on('error', (err) => retire(slot, err));
    slot.worker.on('exit', (code) => retire(slot, new Error(`The worker thread exited (code ${code}) while running the job.`)));
    return slot;
  };

  return {
    run(payload, ctx) {
      if (closing) return Promise.reject(new QueueClosedError());
      return new Promise((resolve, reject) => {
        pending.push({ payload, ctx, resolve, reject });
        dispatch();
      });
    },
    async close() {
      closing = true;
      for (const task of pending.splice(0)) task.reject(new QueueClosedError());
      await Promise.all([...all].map((slot) => slot.worker.terminate()));
    },
  };
}

/**
 * From compiled JS the thread entry is plain `thread-worker.js`. From TypeScript sources (tsx,
 * vitest) the thread has no TypeScript loader of its own, so it registers tsx's ESM hooks first;
 * the same happens when the handler module itself is a `.ts` file.
 */
function startWorker(options: ThreadPoolOptions): Worker {
  const here = import.meta.url;
  const fromSource = /\.ts$/.test(here);
  const entry = new URL(`./thread-worker.${fromSource ? 'ts' : 'js'}`, here);
  const workerData = { module: options.module, exportName: options.exportName };
  if (!fromSource && !/\.[cm]?ts$/.test(options.module)) return new Worker(entry, { workerData });
  // Loader flags in a worker's execArgv are not honoured by Node 20, so register tsx from inside.
  const code = `import(${JSON.stringify(tsxEsmApi(here))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(code, { eval: true, workerData });
}

/** URL of tsx's ESM register API (`tsx/esm/api`, import condition), from tsx's own exports map. */
function tsxEsmApi(from: string): string {
  const pkgFile = createRequire(from).resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  return pathToFileURL(path.join(path.dirname(pkgFile), pkg.exports['./esm/api'].import.default)).href;
}

function rebuildError(failure: Failure): Error {
  if (failure.code) return new AppError(failure.code, failure.message);
  return failure.permanent ? new PermanentJobError(failure.message) : new Error(failure.message);
}
