import { AppError } from '../../../shared/errors.js';
import type { Clock } from '../clock.js';
import { OwnerLock, type OwnerRecord, type OwnerRole } from './owner-lock.js';
import { ownerPaths } from './paths.js';

/**
 * The home's sync held by one process for the length of an encryption change (`encryption on`,
 * `encryption unlock`: docs/sync-engine.md, "Encryption changes hold the home's sync"). Every
 * round of the home depends on the account's keys, which such a change switches in the middle of
 * its own rounds; so while it runs, no other process of the home runs a round: the owner pauses
 * its automatic rounds and answers no asked round, 立即同步 anywhere says why it waits, and the
 * holder keeps the home's rounds lock for the whole change. The hold is a lock file like the
 * owner lock (created whole, pid and start time, heartbeat), so a holder killed with SIGKILL
 * stops holding at once and a hung one after HOLD_STALE_MS.
 */
export const HOLD_HEARTBEAT_MS = 2_000;
/** Long enough for a holder busy deriving a key (scrypt) between two heartbeats. */
export const HOLD_STALE_MS = 60_000;

export function holdLock(home: string, clock: Clock, role: OwnerRole): OwnerLock {
  return new OwnerLock(ownerPaths(home).holdFile, { clock, role, staleMs: HOLD_STALE_MS });
}

/** The live process holding the home's sync, this one included, or null. */
export function syncHolder(home: string, clock: Clock): OwnerRecord | null {
  return holdLock(home, clock, 'cli').owner();
}

/** What 立即同步 (or a second encryption change) answers while the sync is held. */
export function heldError(holder: Pick<OwnerRecord, 'pid' | 'role'>): AppError {
  return new AppError(
    'unavailable',
    `sync waits while end-to-end encryption is being changed (memdesk encryption on or unlock, or the Sync page) in process ${holder.pid} (${holder.role}); try again when it has finished`,
  );
}
