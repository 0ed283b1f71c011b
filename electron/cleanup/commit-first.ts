import type { Note, Scope } from '../../shared/note.js';

/**
 * The batch a merge writes, as the sync engine needs it for commitFirst: with sync on, the scope is
 * synced first and the whole batch is committed to the server in strict mode (against the manifest
 * version it checked) before this machine writes anything; another device's edit in between makes
 * the server reject the commit, so the merge is refused instead of becoming a conflict.
 */
export interface MergeBatch {
  scope: Scope;
  /** Notes written: the kept note with the merged draft, and every note whose links were repointed. */
  writes: Note[];
  /** Notes deleted (merged into the kept one). */
  deletes: string[];
  /** The content hash each written or deleted note had when the batch was built (what "unchanged" means). */
  basis: Record<string, string>;
}

/** Implemented by the sync engine (electron/sync); absent or `enabled() === false` means a plain local merge. */
export interface MergeCommitter {
  /** Whether cloud sync is on for this scope. */
  enabled(scope: Scope): boolean;
  /**
   * Syncs the scope now so every note is fully synced. Throws an AppError (e.g. 'sync_error',
   * 'conflict') when that is not possible; the merge is then refused and nothing is written.
   */
  syncScope(scope: Scope): Promise<void>;
  /**
   * Commits the batch to the server strictly. Throws AppError('conflict', message naming the note)
   * when another device changed one of the notes, AppError('limit_exceeded') when the merged body
   * is over the service's per-note limit; nothing is written locally then.
   */
  commitBatch(batch: MergeBatch): Promise<void>;
  /** Called after the batch was also written locally, so baselines can record it as synced. */
  appliedLocally?(batch: MergeBatch): Promise<void>;
}
