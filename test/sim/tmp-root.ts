import { accessSync, constants } from 'node:fs';
import os from 'node:os';

/**
 * Real directories, on a RAM file system when there is one: the engine fsyncs every write, and
 * thousands of seeds on a disk would measure the disk's fsync latency rather than the engine.
 */
export function simTmpRoot(): string {
  if (process.env.SIM_TMPDIR) return process.env.SIM_TMPDIR;
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return os.tmpdir();
  }
}
