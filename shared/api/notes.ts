import { z } from '../zod-mini.js';
import { NoteTypeSchema, ScopeSchema } from '../note.js';
import { ListSortSchema, TypeFilterSchema } from '../note-list-order.js';
import { defineMethod, lazyMethods, NoInputSchema } from './define.js';

/** `both` lists or searches project and user notes together. */
export const ScopeSelectionSchema = z.enum(['project', 'user', 'both']);

export const WarningSchema = z.object({
  /** A stable code the UI can translate: over_note_limit, unreadable_note, user_dir_unavailable, invalid_config, … */
  code: z.string(),
  message: z.string(),
  scope: z.optional(ScopeSchema),
  path: z.optional(z.string()),
});
export type Warning = z.infer<typeof WarningSchema>;

export const NoteSummarySchema = z.object({
  id: z.string(),
  scope: ScopeSchema,
  summary: z.string(),
  type: z.optional(NoteTypeSchema),
  tags: z.array(z.string()),
  createdAt: z.number(),
  updatedAt: z.number(),
  hash: z.string(),
});
export type NoteSummary = z.infer<typeof NoteSummarySchema>;

export const NoteLinkSchema = z.object({
  id: z.string(),
  /** Where the link resolves: project first, then user; null for a note that does not exist (yet). */
  resolved: z.nullable(ScopeSchema),
});

export const NoteDetailSchema = z.extend(NoteSummarySchema, {
  body: z.string(),
  links: z.array(NoteLinkSchema),
  backlinks: z.array(z.object({ id: z.string(), scope: ScopeSchema, summary: z.string() })),
  recallCount: z.int().check(z.nonnegative()),
  lastRecalledAt: z.nullable(z.number()),
});
export type NoteDetail = z.infer<typeof NoteDetailSchema>;

const NoteRefSchema = z.object({ id: z.string().check(z.minLength(1)), scope: z.optional(ScopeSchema) });

const TagsInputSchema = z.union([z.string(), z.array(z.string())]);

export const RememberInputSchema = z.object({
  summary: z.string().check(z.trim(), z.minLength(1, 'a summary is required')),
  type: z.optional(NoteTypeSchema),
  tags: z.optional(TagsInputSchema),
  /** Defaults by type: `user` notes to the user scope, everything else to the project. */
  scope: z.optional(ScopeSchema),
  id: z.optional(z.string()),
  body: z.string(),
});

export const RememberOutputSchema = z.object({
  id: z.string(),
  scope: ScopeSchema,
  related: z.array(z.object({ id: z.string(), scope: ScopeSchema, summary: z.string() })),
  duplicateOf: z.nullable(z.string()),
  danglingLinks: z.array(z.string()),
});

export const EditInputSchema = z.extend(NoteRefSchema, {
  summary: z.optional(z.string().check(z.trim(), z.minLength(1))),
  /** null removes the type. */
  type: z.optional(z.nullable(NoteTypeSchema)),
  tags: z.optional(TagsInputSchema),
  body: z.optional(z.string()),
  /** The hash the editor started from: when the note changed since, the edit is refused as a conflict. */
  baseHash: z.optional(z.string()),
  /**
   * Back up the version on disk before replacing it, with this reason (the editor's "keep mine":
   * the person replaces a version they saw but did not write).
   */
  backupReason: z.optional(z.string().check(z.minLength(1))),
});

export const ScoreExplanationSchema = z.object({
  /** Terms that matched, per field (after stemming / bigram splitting). */
  matched: z.object({ summary: z.array(z.string()), tags: z.array(z.string()), body: z.array(z.string()) }),
  /**
   * The score's parts; their sum is the score. `proximity`: the typed words standing close together
   * in the note; `semantic`: the semantic ranking's share when semantic recall is on (docs/search.md).
   */
  parts: z.object({
    summary: z.number(),
    tags: z.number(),
    body: z.number(),
    usage: z.number(),
    proximity: z.optional(z.number()),
    semantic: z.optional(z.number()),
  }),
  /** With semantic recall on: the note's cosine similarity to the query and its rank in the semantic scan. */
  semantic: z.optional(z.object({ similarity: z.number(), rank: z.int().check(z.positive()) })),
});

/** What a list row shows beyond a search hit's id, scope and summary. */
const ListFieldsSchema = z.pick(NoteSummarySchema, {
  type: true,
  tags: true,
  createdAt: true,
  updatedAt: true,
  hash: true,
});

export const SearchHitSchema = z.object({
  id: z.string(),
  scope: ScopeSchema,
  summary: z.string(),
  score: z.number(),
  why: ScoreExplanationSchema,
});

/** Each method's schemas are built when it is first called (shared/api/define.ts lazyMethods). */
export const notesApi = lazyMethods({
  'project.init': () =>
    defineMethod({
      summary:
        'Register the current project: .oharness/project.json with a stable id, empty MEMORY/ and ARTIFACTS/.',
      input: NoInputSchema,
      output: z.object({
        projectId: z.string(),
        root: z.string(),
        memoryDir: z.string(),
        artifactsDir: z.string(),
      }),
    }),
  'app.status': () =>
    defineMethod({
      summary: 'Where the data lives and what is wrong with it: directories, counts, warnings from the core.',
      input: NoInputSchema,
      output: z.object({
        home: z.string(),
        project: z.nullable(
          z.object({ root: z.string(), id: z.nullable(z.string()), memoryDir: z.string() }),
        ),
        userDir: z.nullable(z.string()),
        counts: z.object({ project: z.number(), user: z.number() }),
        warnings: z.array(WarningSchema),
        /** Errors nobody expected that the process carried on after (electron/memory/unexpected-error.ts). */
        unexpectedErrors: z.object({
          count: z.int().check(z.nonnegative()),
          /** The log file each distinct one was written to once, or null. */
          log: z.nullable(z.string()),
          recent: z.array(z.object({ where: z.string(), message: z.string() })),
        }),
      }),
    }),
  'notes.list': () =>
    defineMethod({
      summary:
        'Loaded notes of a scope (or both), most recently updated first; with `limit`, one page at a time (filtered and sorted by the core).',
      input: z.object({
        scope: z._default(ScopeSelectionSchema, 'both'),
        /** Notes per page; absent: every note (the CLI, the quick switcher). */
        limit: z.optional(z.int().check(z.positive(), z.lte(1000))),
        /** The previous page's `nextCursor`: this page starts right after that note. */
        cursor: z.optional(z.string()),
        sort: z._default(ListSortSchema, 'updated'),
        type: z._default(TypeFilterSchema, 'all'),
        /** A tag or the start of one. */
        tag: z._default(z.string(), ''),
      }),
      output: z.object({
        notes: z.array(NoteSummarySchema),
        warnings: z.array(WarningSchema),
        /** How many notes pass the filters (all pages). */
        total: z.int().check(z.nonnegative()),
        /** Where the next page starts; null on the last page. */
        nextCursor: z.nullable(z.string()),
      }),
    }),
  'notes.tags': () =>
    defineMethod({
      summary:
        'Every tag in use in a scope (or both), most used first, with its count (the tag filter’s suggestions).',
      input: z.object({ scope: z._default(ScopeSelectionSchema, 'both') }),
      output: z.object({ tags: z.array(z.object({ tag: z.string(), count: z.int().check(z.positive()) })) }),
    }),
  'notes.get': () =>
    defineMethod({
      summary: 'One note in full with its links, backlinks and recall count.',
      input: NoteRefSchema,
      output: NoteDetailSchema,
    }),
  'notes.remember': () =>
    defineMethod({
      summary:
        'Write a new note; returns related notes, a probable duplicate and links to notes not written yet.',
      input: RememberInputSchema,
      output: RememberOutputSchema,
    }),
  'notes.related': () =>
    defineMethod({
      summary: 'Before writing a note: the existing notes it resembles and the one it probably duplicates.',
      input: z.object({
        summary: z.string(),
        body: z.string(),
        tags: z.optional(TagsInputSchema),
        type: z.optional(NoteTypeSchema),
      }),
      output: z.object({
        related: z.array(z.object({ id: z.string(), scope: ScopeSchema, summary: z.string() })),
        duplicateOf: z.nullable(z.object({ id: z.string(), scope: ScopeSchema, summary: z.string() })),
      }),
    }),
  'notes.edit': () =>
    defineMethod({
      summary: 'Change a note by hand.',
      input: EditInputSchema,
      output: NoteDetailSchema,
    }),
  'notes.forget': () =>
    defineMethod({
      summary: 'Delete a note; it is backed up first.',
      input: NoteRefSchema,
      output: z.object({ id: z.string(), scope: ScopeSchema, backupId: z.string() }),
    }),
  'notes.search': () =>
    defineMethod({
      summary: 'Ranked search over every field of every note, best first, each hit saying why it matched.',
      input: z.object({
        query: z.string(),
        limit: z._default(z.int().check(z.positive(), z.lte(1000)), 20),
        scope: z._default(ScopeSelectionSchema, 'both'),
        /**
         * The Memory page's search: each hit also carries the list's fields (type, tags, dates) so
         * the page filters and sorts hits without the whole list, and a note whose id is the query
         * comes first.
         */
        listing: z._default(z.boolean(), false),
      }),
      output: z.object({
        notes: z.array(z.extend(SearchHitSchema, z.partial(ListFieldsSchema).shape)),
        /** Semantic recall on and its endpoint down: said once per outage; the result is by words alone. */
        notice: z.optional(z.string()),
      }),
    }),
  'notes.recall': () =>
    defineMethod({
      summary: 'What per-message recall would attach to this message (and the <recalled-memory> text).',
      input: z.object({ message: z.string(), alreadyAttached: z._default(z.array(z.string()), []) }),
      output: z.object({
        notes: z.array(SearchHitSchema),
        linked: z.array(z.object({ id: z.string(), scope: ScopeSchema, summary: z.string() })),
        text: z.string(),
        /** Semantic recall on and its endpoint down: said once per outage; the result is by words alone. */
        notice: z.optional(z.string()),
      }),
    }),
  'notes.index': () =>
    defineMethod({
      summary:
        'The memory index as the system prompt shows it: one line per note, newest first, within indexChars.',
      input: NoInputSchema,
      output: z.object({ text: z.string(), shown: z.int(), omitted: z.int() }),
    }),
  'backups.list': () =>
    defineMethod({
      summary: 'The latest 50 backups with when and why.',
      input: z.object({ limit: z._default(z.int().check(z.positive(), z.lte(500)), 50) }),
      output: z.object({
        backups: z.array(
          z.object({
            id: z.string(),
            noteId: z.string(),
            scope: z.nullable(ScopeSchema),
            summary: z.nullable(z.string()),
            /** null for backups written before reasons were recorded. */
            reason: z.nullable(z.string()),
            at: z.number(),
            originDir: z.nullable(z.string()),
          }),
        ),
      }),
    }),
  'backups.restore': () =>
    defineMethod({
      summary:
        'Restore a backup to the directory it came from; a newer version it replaces is backed up first.',
      input: z.object({ backupId: z.string().check(z.minLength(1)) }),
      output: z.object({
        id: z.string(),
        scope: z.nullable(ScopeSchema),
        dir: z.string(),
        replacedBackupId: z.nullable(z.string()),
      }),
    }),
});
