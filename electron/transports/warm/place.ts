import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Where warm servers advertise themselves: one directory per user, mode 0700, owned by that user —
 * `$XDG_RUNTIME_DIR/memdesk` when the session has one, else `<tmpdir>/memdesk-<uid>`. Windows
 * has no such directory: `%LOCALAPPDATA%\memdesk\warm` (per-user by its ACL). Its files name
 * sockets and hold tokens, so a directory another user could write to or read is never used.
 */
export function warmDir(env: Record<string, string | undefined>): string {
  if (process.platform === 'win32')
    return path.join(env.LOCALAPPDATA ?? path.join(os.homedir(), 'AppData', 'Local'), 'memdesk', 'warm');
  const runtime = env.XDG_RUNTIME_DIR?.trim();
  return runtime && path.isAbsolute(runtime)
    ? path.join(runtime, 'memdesk')
    : path.join(os.tmpdir(), `memdesk-${process.getuid?.() ?? 'user'}`);
}

/**
 * true when `dir` is a real directory (not a link) of this user that nobody else can enter. With
 * `create`, a missing one is made first (0700).
 */
export function privateDirOk(dir: string, create: boolean): boolean {
  try {
    if (create) mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory()) return false;
    if (process.platform === 'win32') return true;
    return st.uid === process.getuid?.() && (st.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/** One advertisement per home and project: its file name, from both paths. */
function placeKey(home: string, projectRoot: string): string {
  return createHash('sha256').update(`${home}\0${projectRoot}`).digest('hex').slice(0, 32);
}

export function advertisementPath(dir: string, home: string, projectRoot: string): string {
  return path.join(dir, `${placeKey(home, projectRoot)}.json`);
}

/** A fresh socket path for one server (the random part keeps two servers of one place apart). */
export function socketPath(dir: string, home: string, projectRoot: string, nonce: string): string {
  const name = `${placeKey(home, projectRoot).slice(0, 16)}-${nonce}`;
  return process.platform === 'win32' ? `\\\\.\\pipe\\memdesk-${name}` : path.join(dir, `${name}.sock`);
}

/**
 * The config overrides an environment carries (`OHARNESS_*` but the home, which is compared on
 * its own): a server answers only clients whose overrides are its own, so an answer never
 * depends on whose environment computed it.
 */
export function envKey(env: Record<string, string | undefined>): string {
  const entries = Object.entries(env)
    .filter(([k, v]) => k.startsWith('OHARNESS_') && k !== 'OHARNESS_HOME' && v !== undefined && v !== '')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`);
  return createHash('sha256').update(entries.join('\0')).digest('hex');
}
