import { runWorkerTask } from '../../memory/worker-pool/pool.js';
import type { ImportTask, ImportTaskResult } from './tasks.js';

/** How long one import's reading may take before its worker is stopped (docs/security.md). */
export const DEFAULT_IMPORT_BUDGET_MS = 60_000;

export interface WorkerRunOptions {
  /** Milliseconds before the worker is terminated and the import refused. */
  budgetMs?: number;
  /** Aborting terminates the worker at once. */
  signal?: AbortSignal;
}

/**
 * Reading an import (inflating a zip, querying a SQLite bank) runs in a worker thread
 * (import-worker.ts), so a hostile file can neither block the process's event loop nor run
 * unbounded: past the budget, or on abort, the worker is terminated (sql.js is synchronous, so
 * nothing else could interrupt it). Nothing is written by the worker; the caller writes only what a
 * finished read returned.
 */
export function runImportTask<T extends ImportTask>(
  task: T,
  opts: WorkerRunOptions = {},
): Promise<ImportTaskResult<T>> {
  return runWorkerTask({ name: 'import-worker', from: import.meta.url }, task, {
    what: 'the import',
    budgetMs: opts.budgetMs ?? DEFAULT_IMPORT_BUDGET_MS,
    signal: opts.signal,
  });
}
