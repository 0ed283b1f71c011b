import { promises as fs } from 'node:fs';
import path from 'node:path';
import { missingOr } from '../../memory/unexpected-error.js';

/** Past this size the log is moved to hooks.log.1 (replacing the previous one): two files at most. */
export const HOOK_LOG_MAX_BYTES = 512 * 1024;

export function hookLogPath(home: string): string {
  return path.join(home, 'logs', 'hooks.log');
}

/**
 * One line per hook failure in `$OHARNESS_HOME/logs/hooks.log`: when, which harness and event, and
 * the error's first line — never the prompt or a note's text. A hook must never fail because of
 * its log, so this swallows its own errors.
 */
export async function logHookProblem(home: string, at: number, where: string, error: unknown): Promise<void> {
  const raw = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const first = (raw.split(/\r?\n/, 1)[0] ?? '').slice(0, 300);
  const file = hookLogPath(home);
  try {
    await fs.mkdir(path.dirname(file), { recursive: true });
    const size = (await fs.stat(file).catch(missingOr(null, 'hook log: stat')))?.size ?? 0;
    if (size > HOOK_LOG_MAX_BYTES) await fs.rename(file, `${file}.1`);
    await fs.appendFile(file, `${new Date(at).toISOString()} ${where}: ${first}\n`);
  } catch {
    // nowhere left to say it
  }
}
