import { z } from '../zod-mini.js';
import { BankScopeSchema } from '../bank-scope.js';
import { ScopeSchema } from '../note.js';
import { defineMethod } from './define.js';
import { WarningSchema } from './notes.js';

/**
 * Agent-facing methods (docs/agents.md): retain with one receipt per item, export/import of a scope
 * as a zip of note files, and the import of an oh-my-pi Mnemopi SQLite bank.
 */

export { BANK_SCOPES, DEFAULT_BANK_SCOPE, type BankScope } from '../bank-scope.js';
export { BankScopeSchema };

export const RetainItemSchema = z.object({
  /**
   * One specific, self-contained fact (who, what, when, why). Empty or credential-looking content is
   * not a schema error: that item alone is refused in its receipt, the others are still stored.
   */
  content: z.string().check(z.describe('one specific, self-contained fact: who, what, when, why')),
  context: z
    .optional(z.string())
    .check(z.describe('where the fact comes from (per-item provenance), e.g. a file, a PR, a conversation')),
});
export type RetainItem = z.infer<typeof RetainItemSchema>;

export const RetainInputSchema = z.object({
  items: z
    .array(RetainItemSchema)
    .check(z.minLength(1, 'at least one item is required'), z.maxLength(500, 'at most 500 items per call')),
  /** Overrides the configured `memory.retain.scoping` for this call. */
  bankScope: z.optional(BankScopeSchema),
});

export const RETAIN_STATUSES = ['stored', 'updated', 'refused', 'failed'] as const;

export const RetainReceiptSchema = z.object({
  index: z.int().check(z.nonnegative()),
  /** The note's id; null when the item was refused before an id existed, or failed before one was chosen. */
  id: z.nullable(z.string()),
  status: z.enum(RETAIN_STATUSES),
  /** Why an item was refused or failed; a note for `updated`. */
  reason: z.optional(z.string()),
  scope: z.optional(ScopeSchema),
  /** An existing note this item probably duplicates (not identical: identical content is `updated`). */
  probableDuplicate: z.optional(z.object({ id: z.string(), scope: ScopeSchema, summary: z.string() })),
});
export type RetainReceipt = z.infer<typeof RetainReceiptSchema>;

export const RetainOutputSchema = z.object({
  receipts: z.array(RetainReceiptSchema),
  bankScope: BankScopeSchema,
  /** e.g. an invalid memory.retain.scoping that fell back to the default, or no project for per-project. */
  warnings: z.array(WarningSchema),
});

export const OnCollisionSchema = z.enum(['skip', 'keep-both']);

const ArchiveProblemSchema = z.object({ entry: z.string(), reason: z.string() });

export const ImportZipOutputSchema = z.object({
  scope: ScopeSchema,
  /** Notes written; `renamedFrom` when keep-both gave the note a new id. */
  imported: z.array(z.object({ id: z.string(), renamedFrom: z.optional(z.string()) })),
  /** Entries not written because a note with that id exists (on-collision skip, or identical content). */
  skipped: z.array(ArchiveProblemSchema),
  /** Entries refused: path traversal, not a note, malformed, too large, … */
  refused: z.array(ArchiveProblemSchema),
});

export const MnemopiBankReportSchema = z.object({
  /** The database file (absolute). */
  path: z.string(),
  /** The bank's name: `default` for the main mnemopi.db, else the directory name under banks/. */
  bank: z.string(),
  status: z.enum(['imported', 'skipped']),
  /** Why a bank was skipped (missing, unreadable, corrupt, no working_memory table). */
  reason: z.optional(z.string()),
  imported: z.int().check(z.nonnegative()),
  /** Rows already present (identical content) or not convertible. */
  skippedRows: z.int().check(z.nonnegative()),
  problems: z.array(z.string()),
  /** Every row read, in order: imported (with the note's id) or skipped and why. */
  rows: z.array(
    z.object({
      row: z.string(),
      status: z.enum(['imported', 'skipped']),
      id: z.optional(z.string()),
      reason: z.optional(z.string()),
    }),
  ),
});

export const agentsApi = {
  'agents.retain': defineMethod({
    summary:
      'Store one or more self-contained facts, one receipt per item once that note is durably on disk.',
    input: RetainInputSchema,
    output: RetainOutputSchema,
  }),
  'agents.export': defineMethod({
    summary: 'Write every note file of a scope, byte for byte, into a zip archive.',
    input: z.object({
      scope: ScopeSchema,
      out: z.string().check(z.minLength(1, 'an output file is required')),
    }),
    output: z.object({
      path: z.string(),
      scope: ScopeSchema,
      notes: z.int().check(z.nonnegative()),
      bytes: z.int().check(z.nonnegative()),
    }),
  }),
  'agents.import': defineMethod({
    summary:
      'Import the notes of a zip written by export into a scope; a note whose id exists is skipped or kept under a new id.',
    input: z.object({
      file: z.string().check(z.minLength(1, 'a zip file is required')),
      scope: ScopeSchema,
      onCollision: z._default(OnCollisionSchema, 'skip'),
    }),
    output: ImportZipOutputSchema,
  }),
  'agents.importMnemopi': defineMethod({
    summary:
      'Import the working-memory rows of an oh-my-pi Mnemopi SQLite bank (a file, or a data directory with banks/) as notes.',
    input: z.object({
      path: z.string().check(z.minLength(1, 'a database file or Mnemopi data directory is required')),
      scope: z._default(ScopeSchema, 'user'),
    }),
    output: z.object({
      scope: ScopeSchema,
      banks: z.array(MnemopiBankReportSchema),
      imported: z.int().check(z.nonnegative()),
    }),
  }),
};
