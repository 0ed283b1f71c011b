import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ImportTask, ImportTaskResult, WorkerReply } from './tasks.js';

/** How long one import's reading may take before its worker is stopped (docs/security.md). */
export const DEFAULT_IMPORT_BUDGET_MS = 60_000;

export interface WorkerRunOptions {
  /** Milliseconds before the worker is terminated and the import refused. */
  budgetMs?: number;
  /** Aborting terminates the worker at once. */
  signal?: AbortSignal;
}

export class ImportStopped extends Error {}

/**
 * Reading an import (inflating a zip, querying a SQLite bank) runs in a worker thread, so a hostile
 * file can neither block the process's event loop nor run unbounded: past the budget, or on abort,
 * the worker is terminated (sql.js is synchronous, so nothing else could interrupt it). Nothing is
 * written by the worker; the caller writes only what a finished read returned.
 */
export function runImportTask<T extends ImportTask>(
  task: T,
  opts: WorkerRunOptions = {},
): Promise<ImportTaskResult<T>> {
  const budgetMs = opts.budgetMs ?? DEFAULT_IMPORT_BUDGET_MS;
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) {
      reject(new ImportStopped('the import was cancelled before it started'));
      return;
    }
    const worker = spawnWorker(task);
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
          reject(new ImportStopped(`reading it took longer than the ${budgetMs} ms budget and was stopped`)),
        ),
      budgetMs,
    );
    const onAbort = (): void => finish(() => reject(new ImportStopped('the import was cancelled')));
    opts.signal?.addEventListener('abort', onAbort);
    worker.on('message', (reply: WorkerReply) =>
      finish(() =>
        reply.ok ? resolve(reply.result as ImportTaskResult<T>) : reject(new Error(reply.error)),
      ),
    );
    worker.on('error', (err) => finish(() => reject(err)));
    worker.on('exit', (code) =>
      finish(() => reject(new Error(`the import worker stopped unexpectedly (exit code ${code})`))),
    );
  });
}

/**
 * The compiled build runs `worker-entry.js` directly. Run from TypeScript sources (tests, `tsx`
 * scripts), the worker first registers tsx's loader so it can import the `.ts` entry.
 */
function spawnWorker(task: ImportTask): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = new URL(`./worker-entry.${fromSource ? 'ts' : 'js'}`, import.meta.url);
  if (!fromSource) return new Worker(entry, { workerData: task });
  // tsx's ESM API (its CommonJS twin cannot register from an eval'd worker), resolved from here, not the cwd.
  const tsx = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const boot = `const { workerData } = require('node:worker_threads');
import(workerData.tsx).then((tsx) => { tsx.register(); return import(workerData.entry); });`;
  return new Worker(boot, { eval: true, workerData: { ...task, tsx, entry: entry.href } });
}
