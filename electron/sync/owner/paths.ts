import path from 'node:path';

/**
 * Where the processes of one device that share an OHARNESS_HOME coordinate sync
 * (docs/architecture.md, "One sync owner per home"): all under `memory-sync/owner/`.
 */
export interface OwnerPaths {
  dir: string;
  /** The owner lock: which process schedules automatic rounds for this home. */
  lockFile: string;
  /** The desktop app asking a lower-priority owner to hand sync over: `{pid}`. */
  handoverFile: string;
  /** Nudges from processes that wrote notes but do not own sync: one file per note directory. */
  requestsDir: string;
  /** Rounds a person asked for in a process that does not own sync, for the owner to run. */
  askedDir: string;
  /** The owner's answers to them: what each round did, per directory. */
  answersDir: string;
  /** The device's request budget and 429 pause, shared by every process of the home. */
  limitsFile: string;
  /** Rounds run one at a time across the home's processes: the lock of this directory. */
  roundsDir: string;
  /** A process changing the account's encryption holds every process's rounds (sync-hold.ts). */
  holdFile: string;
}

export function ownerPaths(home: string): OwnerPaths {
  const dir = path.join(path.resolve(home), 'memory-sync', 'owner');
  return {
    dir,
    lockFile: path.join(dir, 'owner.json'),
    handoverFile: path.join(dir, 'handover.json'),
    requestsDir: path.join(dir, 'requests'),
    askedDir: path.join(dir, 'asked'),
    answersDir: path.join(dir, 'answers'),
    limitsFile: path.join(dir, 'device-limits.json'),
    roundsDir: path.join(dir, 'rounds'),
    holdFile: path.join(dir, 'hold.json'),
  };
}
