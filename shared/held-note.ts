import { z } from 'zod';

/**
 * A file in a notes folder that is on disk but not loaded as a note. Sync treats such a note as
 * "held": it is not deleted anywhere (it is not gone), nothing is uploaded for it and nothing from
 * the cloud is written over it, until the file is fixed.
 */
export const HeldReasonSchema = z.enum([
  'unreadable', // the file cannot be read or parsed (a slip in the JSON frontmatter, EACCES, …)
  'too_large', // over memory.maxNoteBytes
  'case_twin', // its id equals another file's ignoring case (macOS and Windows cannot keep both)
  'over_note_limit', // skipped because the folder holds more than memory.maxNotes
  'symlink', // a symbolic link: never followed, read or deleted
  'invalid_id', // the file name is not a valid note id
]);
export type HeldReason = z.infer<typeof HeldReasonSchema>;

export const HeldNoteSchema = z.object({
  /** The note id the file name gives (the name without `.md`). */
  id: z.string(),
  path: z.string(),
  reason: HeldReasonSchema,
  /** Why, for the person: names the file and the problem. */
  message: z.string(),
});
export type HeldNote = z.infer<typeof HeldNoteSchema>;
