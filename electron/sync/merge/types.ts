import type { NoteContent } from '../../../shared/note.js';

/**
 * Why a note changed on both sides could not be merged automatically (R-SYNC-MERGE).
 * - `summary` / `type`: both sides changed that field, to different values.
 * - `body`: edits on the same or adjacent lines of the body.
 * - `too_large`: the merged body is over the plan's size limit (`maxBodyBytes`, UTF-8 bytes).
 * - `no_base`: both sides exist and differ, but there is no copy of the last synced version.
 */
export type ConflictReason = 'summary' | 'type' | 'body' | 'too_large' | 'no_base';

export interface MergeOptions {
  /** The plan's limit on one body, in UTF-8 bytes. A merged body over it is a `too_large` conflict. */
  maxBodyBytes?: number;
}

/** One region of a body that could not be merged; the texts keep their line endings ('\n'). */
export interface TextConflict {
  /** 1-based line of the `<<<<<<< this computer` marker in the merged text. */
  markerLine: number;
  local: string;
  /** The last synced text of the region; `null` when merging without a baseline. */
  base: string | null;
  cloud: string;
}

export type TextMergeResult =
  | { clean: true; text: string }
  | {
      clean: false;
      /** Everything that merged, with git-style conflict markers around each region that did not. */
      text: string;
      hunks: TextConflict[];
    };

/**
 * The outcome of reconciling one note. `content: null` means the note is deleted / absent.
 * - `unchanged`: this computer and the cloud already hold the same content (nobody changed it, or
 *   both made the same change: then `baseChanged` is true and the baseline should be advanced).
 *   Nothing to transfer.
 * - `take-local`: the result is this computer's version: upload it (null: delete in the cloud).
 * - `take-cloud`: the result is the cloud's version: write it here (null: delete here).
 *   For both, `overridesDelete` is true when the other side had deleted the note and this edit
 *   wins over that delete (an edit against a delete keeps the edit).
 * - `merged`: both changed and the changes combine into new content: write it here and upload it.
 * - `conflict`: hold this note back until the person resolves it. `draft` is the best automatic
 *   merge: fields that merged are merged, a field in conflict holds this computer's value, and the
 *   body carries conflict markers where it could not merge (see docs/merge.md).
 */
export type NoteMergeResult =
  | { kind: 'unchanged'; content: NoteContent | null; baseChanged: boolean }
  | { kind: 'take-local'; content: NoteContent | null; overridesDelete: boolean }
  | { kind: 'take-cloud'; content: NoteContent | null; overridesDelete: boolean }
  | { kind: 'merged'; content: NoteContent }
  | { kind: 'conflict'; reasons: ConflictReason[]; draft: NoteContent; hunks: TextConflict[] };
