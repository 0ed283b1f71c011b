import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic as coreWriteFileAtomic } from '../memory/atomic-write.js';

/**
 * The core's atomic write (temp + fsync + rename + directory fsync, electron/memory/atomic-write.ts)
 * plus what sync's files need around it: the directory created, and a restricted `mode`. The mode
 * is applied after the rename; a directory created here for such a file is 0700 (the token's
 * `credentials/`), so the file is never readable by others in between.
 */
export async function writeFileAtomic(
  file: string,
  data: string,
  opts: { mode?: number } = {},
): Promise<void> {
  await fs.mkdir(path.dirname(file), {
    recursive: true,
    ...(opts.mode !== undefined ? { mode: 0o700 } : {}),
  });
  await coreWriteFileAtomic(file, data);
  if (opts.mode !== undefined) await fs.chmod(file, opts.mode);
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
