import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic as coreWriteFileAtomic } from '../memory/atomic-write.js';

export { readFileOrNull } from '../memory/atomic-write.js';

/**
 * The core's atomic write (temp + fsync + rename + directory fsync, electron/memory/atomic-write.ts)
 * with the directory created first; a restricted `mode` (the token file) applies to the temp file
 * from its creation, and a directory created for such a file is 0700.
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
  await coreWriteFileAtomic(file, data, opts);
}
