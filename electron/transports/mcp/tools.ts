import { z } from 'zod';
import type { ApiMethodName } from '../../../shared/api.js';
import { agentsApi } from '../../../shared/api/agents.js';
import { agentsConnectApi } from '../../../shared/api/agents-connect.js';
import { notesApi } from '../../../shared/api/notes.js';
import { AppError } from '../../../shared/errors.js';
import { SELF_CONTAINED, TAG_OTHER_WORDS, WORTH_WRITING } from '../../agents/guidance.js';

/**
 * The MCP tools: each maps its arguments onto a method of the API table and is called through
 * invokeApi (same schemas, same validation, same handlers as the UI and the CLI). Input schemas are
 * derived from the API table's zod schemas.
 */
export interface McpTool {
  name: string;
  description: string;
  /** Validates the tool's arguments (the API schema itself, or one composed of API schema parts; zod or zod/mini). */
  input: z.core.$ZodType;
  /** The API call these (already validated) arguments make. */
  route: (args: unknown) => { method: ApiMethodName; input: unknown };
}

const searchInput = notesApi['notes.search'].input;
const getInput = notesApi['notes.get'].input;

/** `memory`: search (query) or read one note in full (id) — exactly one of them. */
export const MemoryToolInputSchema = z
  .object({
    query: z.optional(searchInput.shape.query).describe('words to search for in summaries, tags and bodies'),
    id: z.optional(getInput.shape.id).describe('the id of one note to read in full'),
    scope: z
      .optional(searchInput.shape.scope)
      .describe('project, user or both (default both; with id: where to look first)'),
    limit: z.optional(searchInput.shape.limit).describe('at most this many hits (default 20)'),
  })
  .refine((a) => (a.query === undefined) !== (a.id === undefined), {
    message: 'give either "query" (to search) or "id" (to read one note), not both and not neither',
  });

const direct =
  (method: ApiMethodName) =>
  (args: unknown): { method: ApiMethodName; input: unknown } => ({ method, input: args });

export const MCP_TOOLS: readonly McpTool[] = [
  {
    name: 'remember',
    description: [
      'Write one memory note (a summary line, a Markdown body, optional type and tags). Returns the most related existing notes, a probable duplicate, and links [[id]] to notes that do not exist yet.',
      WORTH_WRITING,
      SELF_CONTAINED,
      TAG_OTHER_WORDS,
      'Types: user (about the person), feedback (how to work), project (decisions, facts of this project), reference (where things are). Link related notes in the body as [[note-id]].',
    ].join('\n\n'),
    input: notesApi['notes.remember'].input,
    route: direct('notes.remember'),
  },
  {
    name: 'memory',
    description: [
      'Search memory notes ({"query": "..."}: ranked hits, each saying which words matched where), or read one note in full ({"id": "..."}: the whole body, never clipped, with its links and backlinks).',
      'Recall matches words, not meaning: when a search finds nothing, try synonyms or the term in the other language.',
    ].join('\n\n'),
    input: MemoryToolInputSchema,
    route: (args) => {
      const a = args as z.infer<typeof MemoryToolInputSchema>;
      if (a.id !== undefined) {
        return {
          method: 'notes.get',
          input: { id: a.id, ...(a.scope && a.scope !== 'both' ? { scope: a.scope } : {}) },
        };
      }
      return {
        method: 'notes.search',
        input: {
          query: a.query,
          ...(a.scope ? { scope: a.scope } : {}),
          ...(a.limit ? { limit: a.limit } : {}),
        },
      };
    },
  },
  {
    name: 'forget',
    description:
      'Delete one memory note by id (give scope when the id exists in both). The note is backed up first and can be restored from Memory Desk. Use it for notes that are wrong or obsolete.',
    input: notesApi['notes.forget'].input,
    route: direct('notes.forget'),
  },
  {
    name: 'recall',
    description:
      'What per-message recall attaches for a message: the best-matching notes (each with why it matched), the notes they link to, and the <recalled-memory> text. ' +
      'Pass ids already attached earlier in the conversation in alreadyAttached so they are not attached again.',
    // Counts as a recall (memory-usage/): the result reaches the agent.
    input: agentsConnectApi['agents.recall'].input,
    route: direct('agents.recall'),
  },
  {
    name: 'retain',
    description: [
      'Store one or more facts in long-term memory for future sessions: {"items": [{"content": "...", "context": "where it comes from"}]}. ' +
        'Each item becomes a note and gets its own receipt, in order: stored, updated (identical content was already there), refused (empty or a credential, with the reason) or failed (with the reason) — given only once that note is on disk. Batch related facts in one call.',
      WORTH_WRITING,
      SELF_CONTAINED,
      TAG_OTHER_WORDS + ' In retain, write tags as #hashtags in the content.',
    ].join('\n\n'),
    input: agentsApi['agents.retain'].input,
    route: direct('agents.retain'),
  },
];

/** The JSON Schema an MCP client sees for a tool (what the tool accepts, i.e. zod's input side). */
export function toolJsonSchema(tool: McpTool): { type: 'object'; [key: string]: unknown } {
  const schema = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete schema.$schema;
  return { ...schema, type: 'object' };
}

/** Validates a tool's arguments with its schema; a person-readable invalid_input error otherwise. */
export function parseToolArgs(tool: McpTool, args: unknown): unknown {
  const parsed = z.safeParse(tool.input, args ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  throw new AppError(
    'invalid_input',
    `${tool.name}: ${where}${issue?.message ?? 'invalid arguments'}`,
    parsed.error.issues,
  );
}
