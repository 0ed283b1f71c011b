import { Worker } from 'node:worker_threads';
import { workerEntry } from './entry.js';
import type { TaskReply } from './in-worker.js';

/**
 * Every worker thread of the app starts here (the findings analysis of 待整理, the reading of an
 * import), so each runs the same way from the sources, tsc's output, the CLI bundle and the
 * packaged Electron bundle (entry.ts).
 */

/** Which worker: its entry's name (`<name>.ts` beside the starter) and the starter's `import.meta.url`. */
export interface WorkerSpec {
  name: string;
  from: string;
}

/** Starts worker `spec` with `workerData`; throws when its entry file is not there. */
export function startWorker(spec: WorkerSpec, workerData: unknown): Worker {
  const entry = workerEntry(spec.name, spec.from);
  if (!entry) throw new Error(`the ${spec.name} file is not there (seen from ${spec.from})`);
  if (!entry.source) return new Worker(entry.url, { workerData });
  // From the TypeScript sources the worker registers tsx's loader first (Node 20 does not apply an
  // `--import` loader to a worker's own entry file); tsx is resolved from here, not the cwd.
  const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.url.href)}); });`;
  return new Worker(boot, { eval: true, workerData });
}

export interface TaskOptions {
  /** What the task is, for its errors ("the import"). */
  what: string;
  /** Milliseconds before the worker is terminated and the task refused. */
  budgetMs: number;
  /** Aborting terminates the worker at once. */
  signal?: AbortSignal;
}

/** A task's worker was stopped: its budget was spent or it was aborted. */
export class TaskStopped extends Error {}

/**
 * Runs one task in a fresh worker thread that answers once (in-worker.ts `answerTask`): past the
 * budget, or on abort, the worker is terminated, so a hostile input can neither block the event
 * loop nor run unbounded (synchronous code in the worker could not be interrupted otherwise).
 */
export function runWorkerTask<R>(spec: WorkerSpec, task: unknown, opts: TaskOptions): Promise<R> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) {
      reject(new TaskStopped(`${opts.what} was cancelled before it started`));
      return;
    }
    const worker = startWorker(spec, task);
    let settled = false;
    const finish = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(
            new TaskStopped(`${opts.what} took longer than the ${opts.budgetMs} ms budget and was stopped`),
          ),
        ),
      opts.budgetMs,
    );
    const onAbort = (): void => finish(() => reject(new TaskStopped(`${opts.what} was cancelled`)));
    opts.signal?.addEventListener('abort', onAbort);
    worker.on('message', (reply: TaskReply<R>) =>
      finish(() => (reply.ok ? resolve(reply.result) : reject(new Error(reply.error)))),
    );
    worker.on('error', (err) => finish(() => reject(err)));
    worker.on('exit', (code) =>
      finish(() => reject(new Error(`${opts.what} stopped unexpectedly (exit code ${code})`))),
    );
  });
}
