import { secretFree } from '../../shared/secret-free.js';

/**
 * The renderer's counterpart of electron/memory/unexpected-error.ts (which it cannot import):
 * where a catch that carries on sends an error nobody expected, so it is not silently lost. A
 * catch site either handles a case it names (with a reason) or reports here in one line:
 *
 *   .catch(reportedOr(undefined, 'sync: mark in use'))
 *
 * Every report is counted; each distinct one (where + message) is written to the console once,
 * without credentials (secretFree: the bridge URL and headers carry a secret).
 */
export function onUnexpectedError(err: unknown, where: string): void {
  count++;
  for (const listener of listeners) listener();
  const message = secretFree(describe(err));
  const key = `${where}\n${message}`;
  if (seen.has(key)) return;
  if (seen.size >= SEEN) seen.delete(seen.values().next().value!);
  seen.add(key);
  console.warn(`Memory Desk: unexpected error in ${where}: ${message}`);
}

/** `.catch(reportedOr(null, 'where'))`: report the error and carry on with the fallback. */
export function reportedOr<T>(fallback: T, where: string): (err: unknown) => T {
  return (err) => {
    onUnexpectedError(err, where);
    return fallback;
  };
}

/** Every report since the page loaded. */
export function unexpectedErrorCount(): number {
  return count;
}

/** Calls `listener` after each report (the status bar shows the count); returns the unsubscribe. */
export function subscribeUnexpectedErrors(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Distinct errors remembered for "warned once"; past this, the oldest are forgotten. */
const SEEN = 200;
let count = 0;
const listeners = new Set<() => void>();
const seen = new Set<string>();

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
