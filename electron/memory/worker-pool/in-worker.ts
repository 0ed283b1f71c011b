import { parentPort, workerData } from 'node:worker_threads';

/** A one-shot worker's answer (pool.ts `runWorkerTask`). */
export type TaskReply<R> = { ok: true; result: R } | { ok: false; error: string };

/** Inside a one-shot worker: runs `run` on the task it was started with and posts the one answer. */
export function answerTask<T, R>(run: (task: T) => Promise<R>): void {
  void run(workerData as T)
    .then(
      (result): TaskReply<R> => ({ ok: true, result }),
      (err: unknown): TaskReply<R> => ({
        ok: false,
        error: err instanceof Error ? err.message : String(err),
      }),
    )
    .then((reply) => parentPort!.postMessage(reply));
}
