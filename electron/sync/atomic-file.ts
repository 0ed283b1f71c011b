import { promises as fs } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Atomic file replacement: write a temp file beside the target, fsync it, rename it over the
 * target, then fsync the directory so the rename itself survives a power cut. A crash at any point
 * leaves either the old or the new file, never a torn one.
 */
export async function writeFileAtomic(
  file: string,
  data: string,
  opts: { mode?: number } = {},
): Promise<void> {
  const dir = path.dirname(file);
  await fs.mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fs.open(tmp, 'w', opts.mode ?? 0o644);
  try {
    await handle.writeFile(data, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    if (opts.mode !== undefined) await fs.chmod(tmp, opts.mode);
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
  await syncDir(dir);
}

async function syncDir(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // Directories cannot be opened for fsync on Windows; the rename is still atomic there.
  } finally {
    await handle?.close();
  }
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
