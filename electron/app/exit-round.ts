import type { Clock } from '../sync/clock.js';
import type { ProcessSync } from './process-sync.js';

/**
 * The longest a process's last round may keep it from exiting (a CLI write with no owner running,
 * an owner exiting with writes still in their debounce). Past it the round is aborted — every
 * write it made is atomic — and what it did not finish is the next owner's.
 */
export const EXIT_ROUND_BOUND_MS = 5_000;

/**
 * One automatic round for each of the given directories, aborted after `boundMs` on the clock.
 * Skipped while a 429 pause or the device's request budget would make it wait (runPending).
 * Returns the directories whose round finished.
 */
export async function runBounded(
  sync: ProcessSync,
  keys: readonly string[],
  clock: Clock,
  boundMs: number,
): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const { coordinator } = sync.engine;
  const timer = clock.setTimeout(() => coordinator.abortAll(), boundMs);
  try {
    const results = await coordinator.runPending(keys);
    return new Set([...results].filter(([, r]) => r.outcome === 'ok').map(([key]) => key));
  } finally {
    clock.clearTimeout(timer);
  }
}
