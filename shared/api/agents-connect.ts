import { z } from '../zod-mini.js';
import { ScopeSchema } from '../note.js';
import { RetainReceiptSchema } from './agents.js';
import { defineMethod, NoInputSchema } from './define.js';
import { SearchHitSchema } from './notes.js';

/**
 * Memory inside real agent harnesses (docs/agents.md): per-message recall that counts, the memory
 * prompt (guidance + index), hooks answered in each harness's own format, setup of a harness's own
 * config files, extraction of facts from a transcript, and the project tag filter's state.
 */
export const HARNESSES = ['claude-code', 'codex', 'gemini', 'cursor'] as const;
export const HarnessSchema = z.enum(HARNESSES);
export type Harness = z.infer<typeof HarnessSchema>;

const RecallOutputSchema = z.object({
  notes: z.array(SearchHitSchema),
  linked: z.array(z.object({ id: z.string(), scope: ScopeSchema, summary: z.string() })),
  text: z.string(),
  /** Semantic recall on and its endpoint down: said once per outage; the notes are by words alone. */
  notice: z.optional(z.string()),
});

export const SetupFileChangeSchema = z.object({
  path: z.string(),
  /** created / updated: written (or would be, with dryRun); unchanged: already set up; restored / removed: undo. */
  action: z.enum(['created', 'updated', 'unchanged', 'restored', 'removed']),
  /** The copy of the file as it was before setup changed it (null when there was no file). */
  backup: z.nullable(z.string()),
  /** The change as unified-diff-like lines (`-` old, `+` new). */
  diff: z.string(),
});

export const HarnessStatusSchema = z.object({
  harness: HarnessSchema,
  name: z.string(),
  /** The MCP server entry is in the harness's config. */
  mcp: z.boolean(),
  /** Memory Desk's hooks are in the harness's config (false where the harness has no usable hooks). */
  hooks: z.boolean(),
  /** What the harness can do: per-message recall by hook, or the index only, or MCP alone. */
  support: z.string(),
  files: z.array(z.string()),
});

export const agentsConnectApi = {
  'agents.recall': defineMethod({
    summary:
      'Per-message recall for an agent: like notes.recall, and each attached note counts as recalled on this machine.',
    input: z.object({ message: z.string(), alreadyAttached: z._default(z.array(z.string()), []) }),
    output: RecallOutputSchema,
  }),
  'agents.prompt': defineMethod({
    summary:
      "The memory section of an agent's system prompt: the guidance, then the index of this project's notes.",
    input: NoInputSchema,
    output: z.object({
      prompt: z.string(),
      /** The index alone, and how many notes it shows / leaves out. */
      text: z.string(),
      shown: z.int(),
      omitted: z.int(),
      /** Every note an agent in this project sees, newest first (the MCP resources). */
      notes: z.array(
        z.object({ id: z.string(), scope: ScopeSchema, summary: z.string(), updatedAt: z.number() }),
      ),
    }),
  }),
  'agents.hook': defineMethod({
    summary: "Answer one hook call of an agent harness, in that harness's own format ('' = no answer).",
    input: z.object({
      harness: HarnessSchema,
      event: z.string().check(z.minLength(1)),
      payload: z.unknown(),
    }),
    output: z.object({ output: z.string() }),
  }),
  'agents.extract': defineMethod({
    summary:
      'Ask the configured model for facts worth keeping in a transcript; each becomes a note through retain.',
    input: z.object({
      transcript: z.string().check(z.minLength(1, 'a transcript file is required')),
      /**
       * manual: asked for (runs whatever memory.autoExtract says); stop / compact: started by a
       * hook (needs onStop / onCompaction; compact reads what is left however short).
       */
      trigger: z._default(z.enum(['manual', 'stop', 'compact']), 'manual'),
      /** The hook's session: extraction continues where the last one of this session stopped. */
      sessionId: z.optional(z.string()),
      harness: z.optional(HarnessSchema),
    }),
    output: z.object({
      status: z.enum(['saved', 'skipped', 'failed']),
      reason: z.optional(z.string()),
      userTurns: z.int().check(z.nonnegative()),
      receipts: z.array(RetainReceiptSchema),
      saved: z.int().check(z.nonnegative()),
    }),
  }),
  'agents.setup': defineMethod({
    summary:
      "Write (or with undo, take out) the MCP server entry and hooks in a harness's own config under the home directory.",
    input: z.object({
      harness: HarnessSchema,
      dryRun: z._default(z.boolean(), false),
      undo: z._default(z.boolean(), false),
      /**
       * Cursor only: also write the project's always-applied rule with the memory prompt
       * (`.cursor/rules/memory-desk.mdc`, kept current as notes change). With undo: take out that
       * project's rule alone (the MCP server and hooks stay); undo without it removes every rule setup wrote.
       */
      projectRule: z._default(z.boolean(), false),
      /** The project folder (absolute) for the rule; the open project when left out. */
      projectRoot: z.optional(z.string().check(z.minLength(1))),
    }),
    output: z.object({
      harness: HarnessSchema,
      files: z.array(SetupFileChangeSchema),
      notes: z.array(z.string()),
    }),
  }),
  'agents.connections': defineMethod({
    summary:
      'Which agent harnesses are connected, and which user notes this project hides because they are tagged for other projects.',
    input: NoInputSchema,
    output: z.object({
      harnesses: z.array(HarnessStatusSchema),
      /**
       * Cursor's project rule, per project it concerns: the open project first, then every project
       * setup wrote one in. `present`: Memory Desk's rule is there; `foreign`: a file of that name
       * Memory Desk did not write (left alone); `absent`: none.
       */
      cursorRules: z.array(
        z.object({
          root: z.string(),
          file: z.string(),
          state: z.enum(['present', 'absent', 'foreign']),
          open: z.boolean(),
        }),
      ),
      /** The open project's label (`project:<label>`); null when no project is open (nothing filtered). */
      projectLabel: z.nullable(z.string()),
      /** User notes tagged for a project, by label (the one-off check in `memdesk info`). */
      taggedForProjects: z.array(
        z.object({
          label: z.string(),
          hiddenHere: z.boolean(),
          notes: z.array(z.object({ id: z.string(), summary: z.string() })),
        }),
      ),
    }),
  }),
};
