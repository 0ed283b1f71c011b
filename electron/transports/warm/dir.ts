import { lstatSync, mkdirSync, readdirSync } from 'node:fs';
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

/**
 * Whether any warm server advertises itself to this user (an advertisement file in the warm
 * directory): when none does, the bin goes straight to the cold path without loading the warm
 * step (memdesk.ts). A server removes its advertisement when it stops; one left by a killed server
 * only costs the warm step's check.
 */
export function anyWarmAdvertised(env: Record<string, string | undefined>): boolean {
  const dir = warmDir(env);
  try {
    return privateDirOk(dir, false) && readdirSync(dir).some((name) => name.endsWith('.json'));
  } catch {
    return false;
  }
}
