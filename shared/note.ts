import { z } from './zod-mini.js';

// zod/mini (functional checks, same core and messages as zod): every note command loads this file,
// and zod's full API costs a cold CLI start ~50 ms (docs/performance.md, "zod/mini on the note path").

/**
 * The four note types: who the user is, feedback on how to work, facts of the project, pointers to
 * references. Notes written before types existed have none and keep working.
 */
export const NOTE_TYPES = ['user', 'feedback', 'project', 'reference'] as const;
export const NoteTypeSchema = z.enum(NOTE_TYPES);
export type NoteType = z.infer<typeof NoteTypeSchema>;

export const ScopeSchema = z.enum(['project', 'user']);
export type Scope = z.infer<typeof ScopeSchema>;

/** Only `user` notes default to the user scope; everything else (and untyped notes) to the project. */
export function defaultScopeForType(type: NoteType | undefined): Scope {
  return type === 'user' ? 'user' : 'project';
}

/**
 * The JSON frontmatter as found on disk. Unknown keys are kept (agents may add their own) and are
 * written back unchanged; timestamps are optional on disk and filled from the file's mtime on load.
 */
export const NoteFrontmatterSchema = z.looseObject({
  id: z.string().check(z.minLength(1)),
  summary: z.string(),
  type: z.optional(NoteTypeSchema),
  tags: z.optional(z.array(z.string())),
  createdAt: z.optional(z.number()),
  updatedAt: z.optional(z.number()),
});
export type NoteFrontmatter = z.infer<typeof NoteFrontmatterSchema>;

/** A note as the core, the API and the sync engine handle it. */
export const NoteSchema = z.object({
  id: z.string(),
  summary: z.string(),
  type: z.optional(NoteTypeSchema),
  tags: z.array(z.string()),
  createdAt: z.number(),
  updatedAt: z.number(),
  body: z.string(),
  /** Frontmatter keys this version does not know, preserved byte-for-byte in meaning. */
  extra: z.optional(z.record(z.string(), z.unknown())),
});
export type Note = z.infer<typeof NoteSchema>;

/** The fields that make up a note's content (what the content hash covers). */
export type NoteContent = Pick<Note, 'summary' | 'type' | 'tags' | 'body' | 'extra'>;
