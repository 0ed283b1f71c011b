import type { Scope } from '../../shared/note.js';
import type { MemoryCore } from '../memory/types.js';
import type { Clock } from '../sync/clock.js';
import { OwnerLock, type OwnerRecord } from '../sync/owner/owner-lock.js';
import { ownerPaths } from '../sync/owner/paths.js';
import { writeRequest } from '../sync/owner/requests.js';
import { EXIT_ROUND_BOUND_MS, runBounded } from './exit-round.js';
import type { ProcessSync } from './process-sync.js';

/** A note directory a one-shot process wrote to. */
export interface WrittenDirectory {
  key: string;
  scope: Scope;
  projectRoot?: string;
  core: MemoryCore;
}

/** What a one-shot process did about the notes it wrote (`memdesk --json` commands don't show it). */
export type ExitSync =
  | { outcome: 'none' }
  | { outcome: 'handed_off'; owner: Pick<OwnerRecord, 'pid' | 'role'> | null }
  | { outcome: 'synced'; synced: string[]; left: string[] };

export interface ExitSyncDeps {
  home: string;
  clock: Clock;
  written: WrittenDirectory[];
  sync(): Promise<ProcessSync>;
  boundMs?: number;
}

/**
 * A one-shot process (memdesk remember, a hook that writes) after it wrote notes, before it exits:
 *   - nothing written: nothing to do (and the root does not call this when never signed in here);
 *   - another process owns sync: a nudge per directory, and the process exits at once;
 *   - nobody does: it owns sync for one bounded round per directory written (EXIT_ROUND_BOUND_MS,
 *     skipped while a 429 pause or the device's budget would make it wait), then lets go; what
 *     did not finish is left as a nudge for the next owner.
 */
export async function syncWrittenBeforeExit(deps: ExitSyncDeps): Promise<ExitSync> {
  const { home, clock, written } = deps;
  if (written.length === 0) return { outcome: 'none' };
  const paths = ownerPaths(home);
  const nudge = (dirs: WrittenDirectory[]): void => {
    for (const { key, scope, projectRoot } of dirs)
      writeRequest(paths.requestsDir, {
        key,
        scope,
        ...(projectRoot ? { projectRoot } : {}),
        pid: process.pid,
      });
  };
  const lock = new OwnerLock(paths.lockFile, { clock, role: 'cli' });
  if (!lock.tryAcquire()) {
    nudge(written);
    const owner = lock.owner();
    return { outcome: 'handed_off', owner: owner ? { pid: owner.pid, role: owner.role } : null };
  }
  try {
    const sync = await deps.sync();
    for (const { core } of written) sync.attach(core);
    const keys = written.map((w) => w.key);
    const done = await runBounded(sync, keys, clock, deps.boundMs ?? EXIT_ROUND_BOUND_MS);
    const left = written.filter((w) => !done.has(w.key));
    nudge(left);
    return { outcome: 'synced', synced: [...done], left: left.map((w) => w.key) };
  } finally {
    lock.release();
  }
}
