import { accessSync, constants, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A fresh directory under the OS temp dir, `memdesk-<name>-XXXXXX`, by its real path (macOS's
 * /var → /private/var would otherwise differ from what the core resolves). The one helper every
 * test harness re-exports.
 */
export async function tempDir(name = 'test'): Promise<string> {
  return fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), `memdesk-${name}-`)));
}

/**
 * A fresh directory on a RAM file system when there is one (`/dev/shm`), else under the OS temp
 * dir; `SIM_TMPDIR` chooses another root. For tests that fsync thousands of writes (the sync
 * simulation): on a disk they would measure the disk's fsync latency rather than the engine.
 */
export async function ramTempDir(name = 'test'): Promise<string> {
  return fs.mkdtemp(path.join(ramTempRoot(), `memdesk-${name}-`));
}

function ramTempRoot(): string {
  if (process.env.SIM_TMPDIR) return process.env.SIM_TMPDIR;
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return os.tmpdir();
  }
}
