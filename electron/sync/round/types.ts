import type { HeldNote } from '../../../shared/held-note.js';
import type { Note, Scope } from '../../../shared/note.js';
import type { SyncStatusCode } from '../../../shared/sync-status.js';
import type { SyncEntry, SyncLimits, SyncScope } from '../../../shared/sync-protocol.js';
import type { BackupStore, NoteStore, StoredNote } from '../../memory/types.js';
import type { AccountSource, SyncAccount } from '../account.js';
import type { BaselineLocation } from '../baseline-location.js';
import type { LocalOnlyNote } from '../../../shared/api/sync.js';
import type { z } from 'zod';
import type {
  BaselineStore,
  ConflictRecord,
  PendingDeletesSchema,
  PullCounts,
  ScopeReport,
} from '../baseline-store.js';
import type { RoundResult } from '../coordinator.js';
import type { SyncTargetsStore } from '../sync-targets.js';

/** A problem the page shows, naming the scope it concerns. */
export interface ScopeError {
  code: SyncStatusCode;
  message: string;
  scope: Scope;
}

/**
 * Fail-safe: deletions waiting for the person — `ids` deleted in the cloud (not yet deleted here),
 * `localIds` deleted here (not yet deleted in the cloud) — and the scope's note count.
 */
export type PendingDeletes = z.infer<typeof PendingDeletesSchema>;

/** The fail-safe's window: the scope's note count when it started and the deletions since (both ways). */
export interface DeleteWindowCount {
  total: number;
  deleted: number;
}

/** Hooks for the simulation and the crash tests. */
export interface SyncHooks {
  /** After the last commit of a round, before the local writes. */
  afterCommit?: () => void | Promise<void>;
  /**
   * Called at each crash point of a round (before every write here, request or save, and after
   * every answer), with its name. A promise that never settles stops the round there as a killed
   * process stops: no `finally`, locks and files left as they are (test/sim). Unset in the app:
   * `if (hooks.point)` only.
   */
  point?: (name: RoundPoint) => Promise<void>;
}

/** The crash points of a round, in the order a round meets them. */
export type RoundPoint =
  | 'gate:identity'
  | 'gate:bind'
  | 'snapshot:page'
  | 'plan:objects'
  | 'commit:backup'
  | 'commit:journal'
  | 'commit:request'
  | 'commit:answered'
  | 'apply:objects'
  | 'apply:write'
  | 'apply:delete'
  | 'save:state'
  | 'save:conflicts'
  | 'save:journal'
  | 'save:garbage'
  | 'round:end';

/** What a round needs from the scope it runs for (the SyncService provides it). */
export interface RoundDeps {
  readonly scope: Scope;
  readonly keyHash: string;
  readonly protocolScope: SyncScope;
  readonly store: NoteStore;
  readonly backups: BackupStore;
  readonly baselines: BaselineStore;
  readonly accounts: AccountSource;
  readonly targets: SyncTargetsStore;
  readonly hooks: SyncHooks;
  /** The project checkout this baseline belongs to (null: user notes), saved with it. */
  readonly location: BaselineLocation | null;
  /** Hashes the round writes, so the store's change events of its own writes are not local edits. */
  readonly selfWrites: Map<string, string | null>;
  now(): number;
  enabled(): Promise<boolean>;
  gate(): Promise<{ ok: true; account: SyncAccount } | { ok: false; reason: 'off' | 'signed_out' }>;
}

/** The transfer of a round that ran to its end, for `sync --json`. */
export interface RoundTransfer {
  pulled: PullCounts;
  pushed: number;
  conflicts: string[];
  /** Files on disk here but not loaded: nothing was sent or written for them. */
  held: HeldNote[];
  /** The cloud had lost history this round (wiped or restored from a backup): see round/history-reset.ts. */
  historyReset: boolean;
}

/**
 * Everything one round found out, returned to the SyncService, which stores it in one place.
 * `report` is undefined when the round did not get far enough to know (blocked or failed): the
 * previous round's stays.
 */
export interface RoundReport {
  result: RoundResult;
  error: ScopeError | null;
  /** The limits the server announced last (null: no answer this round). */
  limits: SyncLimits | null;
  report?: ScopeReport;
  transfer: RoundTransfer | null;
  /** The round failed with this (a request error, a full disk): the service maps it to a status. */
  failure?: unknown;
}

/** Pushing one note: this computer's version, a merge result, or a delete. */
export interface PushPlan {
  id: string;
  /** Local version when planned (null: deleted here). */
  localBefore: string | null;
  /** The version pushed (null: a delete). */
  hash: string | null;
  content: string | null;
  /** UTF-8 bytes of the pushed body: the size both sides limit (128 KiB of body by default). */
  bodyBytes: number;
  /** The cloud's hash we build on (the commit's baseHash). */
  cloudHash: string | null;
  /** After the commit this must be written here too (a merge result). */
  writeLocally: Note | null;
  create: boolean;
}

/** Writing the cloud's version here (note null: deleting here). */
export interface PullPlan {
  id: string;
  localHash: string | null;
  cloudHash: string | null;
  note: Note | null;
  content: string | null;
  reason: 'pull' | 'tombstone' | 'gone';
}

/** A backup to take before the commit (both sides of a clean merge). `content` null: the file as it is on disk. */
export interface PlannedBackup {
  noteId: string;
  content: string | null;
  /** Used when the file cannot be read raw (its canonical serialisation). */
  fallback: string;
  reason: string;
  summary: string | null;
}

export interface StoredObject {
  hash: string;
  content: string;
}

/** The pure planner's inputs: this computer's notes, the baseline, the cloud, the plan's limits. */
export interface PlanInput {
  scope: Scope;
  now: number;
  locals: ReadonlyMap<string, StoredNote>;
  /**
   * Files here that are not loaded (malformed, too large, a case twin, skipped, a link), by
   * noteIdKey of their id: such a note is not deleted — nothing is pushed or pulled for it.
   */
  held: ReadonlyMap<string, HeldNote>;
  baseline: {
    /** Per note id, the hash both sides agreed on at the last sync. */
    base: Readonly<Record<string, string>>;
    /** Conflicts recorded before (a conflict found again keeps its record and time). */
    conflicts: Readonly<Record<string, ConflictRecord>>;
    /** Hashes that have a copy in the baseline's objects/. */
    stored: ReadonlySet<string>;
  };
  cloud: {
    entries: Readonly<Record<string, SyncEntry>>;
    /** Active notes in the cloud (the plan's note count applies to it). */
    activeNotes: number;
  };
  /** Note files: the snapshot's by objectKey(id, hash), the baseline copies the plan may need by hash. */
  texts: { snapshot: ReadonlyMap<string, string>; baseline: ReadonlyMap<string, string> };
  limits: SyncLimits | null;
  /** An old server (protocol 1) cannot hold typed notes: they stay here. */
  typedBlocked: boolean;
  /** An end-to-end encrypted scope: the entries' `replaced` is a keyed hash, never one of this computer's. */
  sealed: boolean;
  /** The person's answer to the fail-safe question, for this round only. */
  deleteDecision: 'delete' | 'keep' | null;
  /** Deletions since the last confirmed state (null: a window starts with this round). */
  deleteWindow: DeleteWindowCount | null;
  /** Notes deleted here that the cloud lost with its history (BaselineState.deletedWhileLost). */
  deletedWhileLost: Readonly<Record<string, string>>;
  /** The person's decisions on those notes' conflicts (BaselineState.decidedWhileLost). */
  decidedWhileLost: Readonly<Record<string, readonly string[]>>;
  /** Notes the cloud's new history deleted from a version this computer cannot place (history-reset.ts). */
  deletedInLostCloud: ReadonlySet<string>;
}

export interface RoundPlan {
  /** The baseline after planning (notes both sides agree on, kept deletions dropped). */
  base: Record<string, string>;
  /** Ids the plan left alone because their file is held here. */
  heldIds: string[];
  /**
   * Copies kept although the baseline does not name them (the cloud's version of a held note), so
   * the round after the file is fixed can merge without a full listing.
   */
  retain: string[];
  pushes: PushPlan[];
  pulls: PullPlan[];
  conflicts: Record<string, ConflictRecord>;
  notices: string[];
  /** Uploads held back, one per note, with the reason. */
  localOnly: LocalOnlyNote[];
  pendingDeletes: PendingDeletes | null;
  /** The fail-safe's window before this round's deletions (its total raised to the notes known now). */
  deleteWindow: DeleteWindowCount;
  /** Copies to store in objects/ before anything names them (agreed versions, conflict sides). */
  objects: StoredObject[];
  /** Backups to take before the commit. */
  backups: PlannedBackup[];
  /** A body the plan needed was in no response and no copy: the next round lists in full. */
  missingBodies: boolean;
  /** What stays of `deletedWhileLost` after this round (the cloud still lacks the note, or a conflict). */
  deletedWhileLost: Record<string, string>;
  /** What stays of `decidedWhileLost` (with its note's `deletedWhileLost`). */
  decidedWhileLost: Record<string, string[]>;
}
