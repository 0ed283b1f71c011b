import { z } from '../../shared/zod-mini.js';
import { BankScopeSchema, DEFAULT_BANK_SCOPE } from '../../shared/bank-scope.js';

/**
 * Every `memory.*` setting, with its default. Each leaf is validated on its own so one
 * bad value falls back to its default (with a warning naming the key) without discarding the rest.
 * `projectMayOnlyTurnOff` marks the settings a project's `.oharness/config.json` may switch off but
 * never on (automatic extraction and background consolidation: a cloned repository must not start
 * sending conversations to a model or merging notes on its own).
 */
export interface ConfigLeaf {
  /** Dotted path under the config file's root, e.g. `memory.recall.perTurn`. */
  key: string;
  schema: z.ZodMiniType;
  projectMayOnlyTurnOff?: boolean;
}

export const ConsolidateAutoSchema = z.union([z.boolean(), z.literal('subscribers')]);

export const MemoryConfigSchema = z.object({
  /** Project notes directory relative to the project root (legacy top-level `memoryDir` too). */
  dir: z._default(z.string().check(z.minLength(1)), 'MEMORY'),
  maxNotes: z._default(z.int().check(z.positive()), 5000),
  maxNoteBytes: z._default(z.int().check(z.positive()), 131072),
  indexChars: z._default(z.int().check(z.nonnegative()), 4000),
  recall: z.prefault(
    z.object({
      enabled: z._default(z.boolean(), true),
      perTurn: z._default(z.int().check(z.nonnegative()), 3),
      budgetChars: z._default(z.int().check(z.nonnegative()), 2000),
      minScore: z._default(z.number().check(z.nonnegative()), 1.2),
    }),
    {},
  ),
  autoExtract: z.prefault(
    z.object({
      onCompaction: z._default(z.boolean(), false),
      onStop: z._default(z.boolean(), false),
      minUserTurns: z._default(z.int().check(z.nonnegative()), 3),
    }),
    {},
  ),
  consolidate: z.prefault(
    z.object({
      auto: z._default(ConsolidateAutoSchema, 'subscribers'),
      cooldownHours: z._default(z.number().check(z.nonnegative()), 24),
      maxMerges: z._default(z.int().check(z.nonnegative()), 3),
      unusedDays: z._default(z.number().check(z.nonnegative()), 90),
    }),
    {},
  ),
  /** How `retain` files facts by default (docs/agents.md): global | per-project | per-project-tagged. */
  retain: z.prefault(
    z.object({
      scoping: z._default(BankScopeSchema, DEFAULT_BANK_SCOPE),
    }),
    {},
  ),
});
export type MemoryConfig = z.infer<typeof MemoryConfigSchema>;

export const DEFAULT_MEMORY_CONFIG: MemoryConfig = MemoryConfigSchema.parse({});

export const CONFIG_LEAVES: readonly ConfigLeaf[] = [
  { key: 'memory.dir', schema: z.string().check(z.trim(), z.minLength(1)) },
  { key: 'memory.maxNotes', schema: z.int().check(z.positive()) },
  { key: 'memory.maxNoteBytes', schema: z.int().check(z.positive()) },
  { key: 'memory.indexChars', schema: z.int().check(z.nonnegative()) },
  { key: 'memory.recall.enabled', schema: z.boolean() },
  { key: 'memory.recall.perTurn', schema: z.int().check(z.nonnegative()) },
  { key: 'memory.recall.budgetChars', schema: z.int().check(z.nonnegative()) },
  { key: 'memory.recall.minScore', schema: z.number().check(z.nonnegative()) },
  { key: 'memory.autoExtract.onCompaction', schema: z.boolean(), projectMayOnlyTurnOff: true },
  { key: 'memory.autoExtract.onStop', schema: z.boolean(), projectMayOnlyTurnOff: true },
  { key: 'memory.autoExtract.minUserTurns', schema: z.int().check(z.nonnegative()) },
  { key: 'memory.consolidate.auto', schema: ConsolidateAutoSchema, projectMayOnlyTurnOff: true },
  { key: 'memory.consolidate.cooldownHours', schema: z.number().check(z.nonnegative()) },
  { key: 'memory.consolidate.maxMerges', schema: z.int().check(z.nonnegative()) },
  { key: 'memory.consolidate.unusedDays', schema: z.number().check(z.nonnegative()) },
  // Case and surrounding spaces do not matter (`GLOBAL`, ` per-project `).
  {
    key: 'memory.retain.scoping',
    schema: z.pipe(z.string().check(z.trim(), z.toLowerCase()), BankScopeSchema),
  },
];
