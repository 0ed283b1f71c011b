import { z } from 'zod';
import { NoteTypeSchema, ScopeSchema } from '../note.js';
import { ListSortSchema, TypeFilterSchema } from '../note-list-order.js';
import { defineMethod, lazyMethods, NoInputSchema } from './define.js';

/** `both` lists or searches project and user notes together. */
export const ScopeSelectionSchema = z.enum(['project', 'user', 'both']);

export const WarningSchema = z.object({
  /** A stable code the UI can translate: over_note_limit, unreadable_note, user_dir_unavailable, invalid_config, … */
  code: z.string(),
  message: z.string(),
  scope: ScopeSchema.optional(),
  path: z.string().optional(),
});
export type Warning = z.infer<typeof WarningSchema>;

export const NoteSummarySchema = z.object({
  id: z.string(),
  scope: ScopeSchema,
  summary: z.string(),
  type: NoteTypeSchema.optional(),
  tags: z.array(z.string()),
  createdAt: z.number(),
  updatedAt: z.number(),
  hash: z.string(),
});
export type NoteSummary = z.infer<typeof NoteSummarySchema>;

export const NoteLinkSchema = z.object({
  id: z.string(),
  /** Where the link resolves: project first, then user; null for a note that does not exist (yet). */
  resolved: ScopeSchema.nullable(),
});

export const NoteDetailSchema = NoteSummarySchema.extend({
  body: z.string(),
  links: z.array(NoteLinkSchema),
  backlinks: z.array(z.object({ id: z.string(), scope: ScopeSchema, summary: z.string() })),
  recallCount: z.number().int().nonnegative(),
  lastRecalledAt: z.number().nullable(),
});
export type NoteDetail = z.infer<typeof NoteDetailSchema>;

const NoteRefSchema = z.object({ id: z.string().min(1), scope: ScopeSchema.optional() });

const TagsInputSchema = z.union([z.string(), z.array(z.string())]);

export const RememberInputSchema = z.object({
  summary: z.string().trim().min(1, 'a summary is required'),
  type: NoteTypeSchema.optional(),
  tags: TagsInputSchema.optional(),
  /** Defaults by type: `user` notes to the user scope, everything else to the project. */
  scope: ScopeSchema.optional(),
  id: z.string().optional(),
  body: z.string(),
});

export const RememberOutputSchema = z.object({
  id: z.string(),
  scope: ScopeSchema,
  related: z.array(z.object({ id: z.string(), scope: ScopeSchema, summary: z.string() })),
  duplicateOf: z.string().nullable(),
  danglingLinks: z.array(z.string()),
});

export const EditInputSchema = NoteRefSchema.extend({
  summary: z.string().trim().min(1).optional(),
  /** null removes the type. */
  type: NoteTypeSchema.nullable().optional(),
  tags: TagsInputSchema.optional(),
  body: z.string().optional(),
  /** The hash the editor started from: when the note changed since, the edit is refused as a conflict. */
  baseHash: z.string().optional(),
  /**
   * Back up the version on disk before replacing it, with this reason (the editor's "keep mine":
   * the person replaces a version they saw but did not write).
   */
  backupReason: z.string().min(1).optional(),
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
    proximity: z.number().optional(),
    semantic: z.number().optional(),
  }),
  /** With semantic recall on: the note's cosine similarity to the query and its rank in the semantic scan. */
  semantic: z.object({ similarity: z.number(), rank: z.number().int().positive() }).optional(),
});

/** What a list row shows beyond a search hit's id, scope and summary. */
const ListFieldsSchema = NoteSummarySchema.pick({
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
        project: z.object({ root: z.string(), id: z.string().nullable(), memoryDir: z.string() }).nullable(),
        userDir: z.string().nullable(),
        counts: z.object({ project: z.number(), user: z.number() }),
        warnings: z.array(WarningSchema),
        /** Errors nobody expected that the process carried on after (electron/memory/unexpected-error.ts). */
        unexpectedErrors: z.object({
          count: z.number().int().nonnegative(),
          /** The log file each distinct one was written to once, or null. */
          log: z.string().nullable(),
          recent: z.array(z.object({ where: z.string(), message: z.string() })),
        }),
      }),
    }),
  'notes.list': () =>
    defineMethod({
      summary:
        'Loaded notes of a scope (or both), most recently updated first; with `limit`, one page at a time (filtered and sorted by the core).',
      input: z.object({
        scope: ScopeSelectionSchema.default('both'),
        /** Notes per page; absent: every note (the CLI, the quick switcher). */
        limit: z.number().int().positive().max(1000).optional(),
        /** The previous page's `nextCursor`: this page starts right after that note. */
        cursor: z.string().optional(),
        sort: ListSortSchema.default('updated'),
        type: TypeFilterSchema.default('all'),
        /** A tag or the start of one. */
        tag: z.string().default(''),
      }),
      output: z.object({
        notes: z.array(NoteSummarySchema),
        warnings: z.array(WarningSchema),
        /** How many notes pass the filters (all pages). */
        total: z.number().int().nonnegative(),
        /** Where the next page starts; null on the last page. */
        nextCursor: z.string().nullable(),
      }),
    }),
  'notes.tags': () =>
    defineMethod({
      summary:
        'Every tag in use in a scope (or both), most used first, with its count (the tag filter’s suggestions).',
      input: z.object({ scope: ScopeSelectionSchema.default('both') }),
      output: z.object({ tags: z.array(z.object({ tag: z.string(), count: z.number().int().positive() })) }),
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
        tags: TagsInputSchema.optional(),
        type: NoteTypeSchema.optional(),
      }),
      output: z.object({
        related: z.array(z.object({ id: z.string(), scope: ScopeSchema, summary: z.string() })),
        duplicateOf: z.object({ id: z.string(), scope: ScopeSchema, summary: z.string() }).nullable(),
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
        limit: z.number().int().positive().max(1000).default(20),
        scope: ScopeSelectionSchema.default('both'),
        /**
         * The Memory page's search: each hit also carries the list's fields (type, tags, dates) so
         * the page filters and sorts hits without the whole list, and a note whose id is the query
         * comes first.
         */
        listing: z.boolean().default(false),
      }),
      output: z.object({
        notes: z.array(SearchHitSchema.extend(ListFieldsSchema.partial().shape)),
        /** Semantic recall on and its endpoint down: said once per outage; the result is by words alone. */
        notice: z.string().optional(),
      }),
    }),
  'notes.recall': () =>
    defineMethod({
      summary: 'What per-message recall would attach to this message (and the <recalled-memory> text).',
      input: z.object({ message: z.string(), alreadyAttached: z.array(z.string()).default([]) }),
      output: z.object({
        notes: z.array(SearchHitSchema),
        linked: z.array(z.object({ id: z.string(), scope: ScopeSchema, summary: z.string() })),
        text: z.string(),
        /** Semantic recall on and its endpoint down: said once per outage; the result is by words alone. */
        notice: z.string().optional(),
      }),
    }),
  'notes.index': () =>
    defineMethod({
      summary:
        'The memory index as the system prompt shows it: one line per note, newest first, within indexChars.',
      input: NoInputSchema,
      output: z.object({ text: z.string(), shown: z.number().int(), omitted: z.number().int() }),
    }),
  'backups.list': () =>
    defineMethod({
      summary: 'The latest 50 backups with when and why.',
      input: z.object({ limit: z.number().int().positive().max(500).default(50) }),
      output: z.object({
        backups: z.array(
          z.object({
            id: z.string(),
            noteId: z.string(),
            scope: ScopeSchema.nullable(),
            summary: z.string().nullable(),
            /** null for backups written before reasons were recorded. */
            reason: z.string().nullable(),
            at: z.number(),
            originDir: z.string().nullable(),
          }),
        ),
      }),
    }),
  'backups.restore': () =>
    defineMethod({
      summary:
        'Restore a backup to the directory it came from; a newer version it replaces is backed up first.',
      input: z.object({ backupId: z.string().min(1) }),
      output: z.object({
        id: z.string(),
        scope: ScopeSchema.nullable(),
        dir: z.string(),
        replacedBackupId: z.string().nullable(),
      }),
    }),
});
