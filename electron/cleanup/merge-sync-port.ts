import type { Note, Scope } from '../../shared/note.js';

/**
 * The one link between a cleanup merge and the sync engine (issue 7, "With sync on"). With sync on
 * for the merge's scope, the merge hands its whole batch — the kept note, every note whose links
 * were repointed, the deletes, each with the hash the plan was made against — to the engine's
 * commitFirst, which syncs the scope, commits the batch strictly and only then writes it here
 * (each replaced note backed up). With sync off (or no engine), the merge writes locally itself.
 * Cleanup owns this port; the sync engine implements it (`mergeSyncFor(engine, core)` in
 * electron/sync/commit-first.ts), so cleanup never imports sync.
 */
export interface MergeSync {
  /** Whether cloud sync is on for this scope right now (toggle on and signed in). */
  enabled(scope: Scope): Promise<boolean>;
  /**
   * Throws AppError('conflict', naming the note) when another device changed one of the notes,
   * AppError('limit_exceeded') when a note is over the sync server's per-note limit, AppError
   * ('sync_error') when the scope cannot be synced first; nothing is written anywhere then.
   */
  commitFirst(scope: Scope, batch: CommitFirstBatch): Promise<CommitFirstResult>;
}

export interface CommitFirstBatch {
  /** Notes to write, each with the hash the plan was made against (null: must not exist yet). */
  puts: Array<{ note: Note; expectedHash: string | null }>;
  /** Notes to delete, with the hash the plan was made against. */
  deletes: Array<{ id: string; expectedHash: string }>;
  /** Reason recorded with the backups of the notes this replaces or deletes. */
  backupReason: string;
}

export interface CommitFirstResult {
  /** `committed`: the cloud accepted it first; `local`: sync is off or signed out. */
  cloud: 'committed' | 'local';
  written: string[];
  deleted: string[];
  /** Backups of the notes deleted here. */
  backupIds: string[];
}
