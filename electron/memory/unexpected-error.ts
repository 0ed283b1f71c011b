import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { secretFree } from '../../shared/secret-free.js';
import { readFailureCause } from './read-failure-cause.js';

/**
 * Where an error nobody expected goes when the code that caught it carries on (as VS Code's
 * `onUnexpectedError`): a cache that could not be saved, a listener that threw, a state file
 * unreadable for a reason other than not being there yet. A catch site either handles a case it
 * names (ENOENT, a parse failure) or reports here, in one line:
 *
 *   } catch (err) { onUnexpectedError(err, 'index cache: save'); }
 *
 * Each distinct error (where + message) is logged once, to the log file the composition root
 * names (electron/app/app-root.ts: `$OHARNESS_HOME/logs/unexpected-errors.log`); every one is
 * counted. `app.status` (`memdesk info`, the app's status) shows the count and the latest few.
 * Messages are logged without credentials (secretFree). This is the one process-wide state below
 * electron/app/: a catch site anywhere reports without being handed a context.
 */
export function onUnexpectedError(err: unknown, where: string): void {
  const message = secretFree(describe(err));
  sink.count++;
  const key = `${where}\n${message}`;
  if (sink.seen.has(key)) return;
  if (sink.seen.size >= SEEN) sink.seen.delete(sink.seen.values().next().value!);
  sink.seen.add(key);
  sink.recent.push({ where, message });
  if (sink.recent.length > RECENT) sink.recent.shift();
  if (!sink.logFile) return;
  try {
    mkdirSync(path.dirname(sink.logFile), { recursive: true });
    appendFileSync(sink.logFile, `${new Date().toISOString()} ${where}: ${message}\n`, { mode: 0o600 });
  } catch {
    // The log is the last resort: an error writing it has nowhere else to go (it is still counted).
  }
}

export interface UnexpectedErrors {
  /** Every report since the process started. */
  count: number;
  /** The log file, or null when none was set (nothing is written then). */
  log: string | null;
  /** The latest distinct errors, oldest first. */
  recent: Array<{ where: string; message: string }>;
}

export function unexpectedErrors(): UnexpectedErrors {
  return { count: sink.count, log: sink.logFile, recent: [...sink.recent] };
}

/** Names the log file (the composition root does, once per process); null stops logging. */
export function setUnexpectedErrorLog(file: string | null): void {
  sink.logFile = file;
}

const RECENT = 10;
/** Distinct errors remembered for "logged once"; past this, the oldest are forgotten. */
const SEEN = 1000;
const sink = {
  count: 0,
  logFile: null as string | null,
  recent: [] as Array<{ where: string; message: string }>,
  seen: new Set<string>(),
};

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as NodeJS.ErrnoException).code;
  return `${err.name}${code ? ` ${code}` : ''}: ${err.message}`;
}

/**
 * For a catch whose expected case is "not there (yet)": a missing file passes silently, anything
 * else (permission, a disk error) is reported.
 */
export function unlessMissing(err: unknown, where: string): void {
  if (readFailureCause(err) !== 'missing') onUnexpectedError(err, where);
}

/** `.catch(missingOr(null, 'where'))`: the fallback for a missing file; any other error is reported too. */
export function missingOr<T>(fallback: T, where: string): (err: unknown) => T {
  return (err) => {
    unlessMissing(err, where);
    return fallback;
  };
}

/** `.catch(reportedOr(null, 'where'))`: every error is unexpected here; report it and carry on with the fallback. */
export function reportedOr<T>(fallback: T, where: string): (err: unknown) => T {
  return (err) => {
    onUnexpectedError(err, where);
    return fallback;
  };
}
