import { randomBytes } from 'node:crypto';
import {
  linkSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { Clock } from '../clock.js';
import { processIsAlive, processStart } from './process-identity.js';
import { onUnexpectedError } from '../../memory/unexpected-error.js';

/** Which kind of process holds the lock (shown in `memdesk status`). */
export const OwnerRoleSchema = z.enum(['app', 'bridge', 'mcp', 'cli']);
export type OwnerRole = z.infer<typeof OwnerRoleSchema>;

const OwnerRecordSchema = z.object({
  pid: z.number().int(),
  host: z.string(),
  /** processStart(pid) when the lock was taken: a reused pid has another one. */
  procStart: z.string().nullable(),
  token: z.string(),
  role: OwnerRoleSchema,
  since: z.number(),
  /** Renewed every heartbeat; an owner that stops renewing (hung, or on another host) goes stale. */
  heartbeatAt: z.number(),
});
export type OwnerRecord = z.infer<typeof OwnerRecordSchema>;

export interface OwnerLockOptions {
  clock: Clock;
  role: OwnerRole;
  /** A heartbeat older than this makes the lock stale (default 3 heartbeats of 2 s). */
  staleMs?: number;
}

/** A takeover in progress left behind by a process killed during it is ignored after this long. */
const TAKEOVER_STALE_MS = 10_000;

/**
 * The sync owner lock of one home: at most one process at a time schedules automatic rounds.
 * The lock file is created whole and atomically (written aside, then hard-linked into place:
 * the link fails if a lock exists). A lock is stale when its process is gone — on this host its
 * pid is not running, or runs with another start time (the pid was reused) — or when its
 * heartbeat is older than `staleMs` (a hung owner, an owner on another host sharing the home).
 * Taking over a stale lock happens under a takeover directory (mkdir is atomic), so two
 * processes that both saw it stale cannot both replace it, nor remove a lock just taken.
 */
export class OwnerLock {
  readonly staleMs: number;
  private mine: OwnerRecord | null = null;

  constructor(
    readonly file: string,
    private readonly opts: OwnerLockOptions,
  ) {
    this.staleMs = opts.staleMs ?? 6_000;
  }

  /** The record this process holds, or null. */
  get held(): OwnerRecord | null {
    return this.mine;
  }

  /** One attempt: true when this process holds the lock afterwards (taken, taken over, or kept). */
  tryAcquire(): boolean {
    if (this.mine && this.heartbeat()) return true;
    const record: OwnerRecord = {
      pid: process.pid,
      host: os.hostname(),
      procStart: processStart(process.pid),
      token: randomBytes(8).toString('hex'),
      role: this.opts.role,
      since: this.opts.clock.now(),
      heartbeatAt: this.opts.clock.now(),
    };
    if (this.create(record)) return true;
    const current = readRecord(this.file);
    if (current === 'absent') return this.create(record);
    if (!this.isStale(current)) return false;
    return this.takeOver(current, record);
  }

  /**
   * Renews the heartbeat. False when the file no longer names this process (a standby judged it
   * stale and took over): the caller must stop scheduling rounds.
   */
  heartbeat(): boolean {
    if (!this.mine) return false;
    const current = readRecord(this.file);
    if (current === 'absent' || current === 'malformed' || current.token !== this.mine.token) {
      this.mine = null;
      return false;
    }
    const renewed = { ...this.mine, heartbeatAt: this.opts.clock.now() };
    const temp = this.tempName();
    writeFileSync(temp, JSON.stringify(renewed));
    renameSync(temp, this.file);
    this.mine = renewed;
    return true;
  }

  /** Gives the lock up (the process exits, or hands over). */
  release(): void {
    const mine = this.mine;
    this.mine = null;
    if (!mine) return;
    const current = readRecord(this.file);
    if (typeof current === 'object' && current.token === mine.token) unlinkQuietly(this.file);
  }

  /** The live owner (this process included), or null when there is none or it is stale. */
  owner(): OwnerRecord | null {
    const current = readRecord(this.file);
    if (typeof current !== 'object' || this.isStale(current)) return null;
    return current;
  }

  isStale(record: OwnerRecord | 'malformed'): boolean {
    // Lock files are created whole (link), so a malformed one is damage, never a write in progress.
    if (record === 'malformed') return true;
    if (this.mine?.token === record.token) return false;
    if (record.host === os.hostname()) {
      if (!processIsAlive(record.pid)) return true;
      const start = processStart(record.pid);
      if (record.procStart !== null && start !== null && start !== record.procStart) return true;
    }
    return this.opts.clock.now() - record.heartbeatAt > this.staleMs;
  }

  private create(record: OwnerRecord): boolean {
    mkdirSync(path.dirname(this.file), { recursive: true });
    const temp = this.tempName();
    writeFileSync(temp, JSON.stringify(record));
    try {
      linkSync(temp, this.file);
      this.mine = record;
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw err;
    } finally {
      unlinkQuietly(temp);
    }
  }

  private takeOver(stale: OwnerRecord | 'malformed', record: OwnerRecord): boolean {
    const guard = `${this.file}.takeover`;
    try {
      mkdirSync(guard);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // Another process is taking over; one killed halfway leaves the directory behind.
      const age = Date.now() - (statSync(guard, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > TAKEOVER_STALE_MS) rmdirQuietly(guard);
      return false;
    }
    try {
      // Re-read under the guard: only the lock judged stale is removed, never one taken since.
      const again = readRecord(this.file);
      const same =
        again === 'absent' ||
        (again === 'malformed' && stale === 'malformed') ||
        (typeof again === 'object' && typeof stale === 'object' && again.token === stale.token);
      if (!same) return false;
      if (again !== 'absent') unlinkQuietly(this.file);
      return this.create(record);
    } finally {
      rmdirQuietly(guard);
    }
  }

  private tempName(): string {
    return `${this.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  }
}

/** The lock file's record: 'absent' when there is none, 'malformed' when it cannot be read as one. */
export function readRecord(file: string): OwnerRecord | 'absent' | 'malformed' {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'absent';
    onUnexpectedError(err, 'sync owner lock: read'); // unreadable (permission, disk): judged like a damaged lock
    return 'malformed';
  }
  try {
    const parsed = OwnerRecordSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : 'malformed';
  } catch {
    return 'malformed'; // not JSON: damage (locks are linked whole), taken over at once (isStale)
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

function rmdirQuietly(dir: string): void {
  try {
    rmdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
