import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { onUnexpectedError } from './unexpected-error.js';

/**
 * Writes a file so that readers see either the old or the new content, never a torn one:
 * a temp file in the same directory, fsync, rename over the target, then fsync the directory
 * (best effort: not every platform lets a directory be opened). `syncDir: false` leaves the
 * directory's fsync to the caller, who writes many files into one directory and fsyncs it once
 * before anything that names them (the baseline's copies, `BaselineStore.putObjects`).
 */
export async function writeFileAtomic(
  file: string,
  content: string | Uint8Array,
  opts: { mode?: number; syncDir?: boolean } = {},
): Promise<void> {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  // A restricted mode (a token file) is set on the temp file before any byte is written, so the
  // content is never readable by others, whatever the umask.
  const handle = await fs.open(tmp, 'wx', opts.mode ?? 0o666);
  if (opts.mode !== undefined) await handle.chmod(opts.mode);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => {}); // the write's own error is the one thrown
    await fs.rm(tmp, { force: true });
    throw err;
  }
  await handle.close();
  try {
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
  if (opts.syncDir !== false) await syncDir(dir);
}

export async function syncDir(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // Windows cannot open directories; the rename is still atomic there.
  } finally {
    await handle?.close().catch((err) => onUnexpectedError(err, 'atomic write: close dir'));
  }
}

/** Temp files this module leaves behind only when a process dies mid-write. */
export function isTempFileName(name: string): boolean {
  return name.startsWith('.') && name.endsWith('.tmp');
}

/** Reads a file, or returns null when it does not exist. */
export async function readFileOrNull(file: string): Promise<string | null> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}
