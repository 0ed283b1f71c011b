import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AppError } from '../../shared/errors.js';
import { missingOr, unlessMissing } from './unexpected-error.js';

/**
 * One write lock per note directory that holds within a process (a promise queue) and across
 * processes (an O_EXCL lock file in the directory holding the owner's pid, host and start time).
 * A lock whose owner is gone — same host and the pid no longer runs, or another host and older than
 * `staleMs` — is taken over. Waiting is bounded: after `timeoutMs` the caller gets a clear error
 * naming the owner and the file to delete if that owner is truly gone.
 */
export const LOCK_FILE_NAME = '.memdesk.lock';

export interface DirLockOptions {
  timeoutMs?: number;
  staleMs?: number;
  /** Stops waiting for the lock (the waiter gives up: a bounded round before a process exits). */
  signal?: AbortSignal;
}

interface LockOwner {
  pid: number;
  host: string;
  at: number;
  token: string;
}

const queues = new Map<string, Promise<unknown>>();

export async function withDirLock<T>(
  dir: string,
  fn: () => Promise<T>,
  opts: DirLockOptions = {},
): Promise<T> {
  const key = path.resolve(dir);
  const previous = queues.get(key) ?? Promise.resolve();
  const run = previous
    .catch(() => {}) // the previous holder's error is its own caller's
    .then(async () => {
      const release = await acquireFileLock(key, opts);
      try {
        return await fn();
      } finally {
        await release();
      }
    });
  const tail = run.catch(() => {}); // the queue only orders: `run` rejects to this caller
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return run;
}

async function acquireFileLock(dir: string, opts: DirLockOptions): Promise<() => Promise<void>> {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const staleMs = opts.staleMs ?? 30_000;
  const lockPath = path.join(dir, LOCK_FILE_NAME);
  const owner: LockOwner = {
    pid: process.pid,
    host: os.hostname(),
    at: Date.now(),
    token: randomBytes(8).toString('hex'),
  };
  const started = Date.now();
  let delay = 2;
  for (;;) {
    opts.signal?.throwIfAborted();
    try {
      const handle = await fs.open(lockPath, 'wx');
      try {
        await handle.writeFile(JSON.stringify(owner));
      } finally {
        await handle.close();
      }
      return () => releaseFileLock(lockPath, owner.token);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new AppError('io_error', `cannot lock ${dir} for writing: ${(err as Error).message}`);
      }
    }
    const current = await readOwner(lockPath);
    if (current === 'gone') continue;
    if (await isStale(current, lockPath, staleMs)) {
      await breakLock(lockPath);
      continue;
    }
    if (Date.now() - started >= timeoutMs) {
      const who =
        current === 'unreadable'
          ? 'another process'
          : `process ${current.pid} on ${current.host} (since ${new Date(current.at).toISOString()})`;
      throw new AppError(
        'unavailable',
        `the notes directory ${dir} is locked by ${who}; waited ${Math.round(timeoutMs / 1000)} s. If that process is no longer running, delete ${lockPath}.`,
      );
    }
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 50);
  }
}

async function readOwner(lockPath: string): Promise<LockOwner | 'gone' | 'unreadable'> {
  let text: string;
  try {
    text = await fs.readFile(lockPath, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    return 'unreadable';
  }
  try {
    const data = JSON.parse(text) as Partial<LockOwner>;
    if (
      typeof data.pid === 'number' &&
      typeof data.host === 'string' &&
      typeof data.at === 'number' &&
      typeof data.token === 'string'
    ) {
      return data as LockOwner;
    }
  } catch {
    // An owner that died between creating the file and writing it leaves it empty.
  }
  return 'unreadable';
}

async function isStale(owner: LockOwner | 'unreadable', lockPath: string, staleMs: number): Promise<boolean> {
  if (owner === 'unreadable') {
    // Give a live owner time to finish writing its record before calling the file abandoned.
    const stat = await fs.stat(lockPath).catch(missingOr(null, 'dir lock: stat'));
    return stat !== null && Date.now() - stat.mtimeMs > 2_000;
  }
  if (owner.host === os.hostname()) return !processIsAlive(owner.pid);
  return Date.now() - owner.at > staleMs;
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Moves the abandoned lock aside atomically (only one taker wins the rename), then deletes it. */
async function breakLock(lockPath: string): Promise<void> {
  const aside = `${lockPath}.stale.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    await fs.rename(lockPath, aside);
  } catch (err) {
    unlessMissing(err, 'dir lock: break'); // gone: another process took it first
    return;
  }
  await fs.rm(aside, { force: true });
}

async function releaseFileLock(lockPath: string, token: string): Promise<void> {
  const current = await readOwner(lockPath);
  if (typeof current === 'object' && current.token === token) await fs.rm(lockPath, { force: true });
}
