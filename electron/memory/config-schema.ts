import { z } from 'zod';
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
  schema: z.ZodType;
  projectMayOnlyTurnOff?: boolean;
}

export const ConsolidateAutoSchema = z.union([z.boolean(), z.literal('subscribers')]);

export const MemoryConfigSchema = z.object({
  /** Project notes directory relative to the project root (legacy top-level `memoryDir` too). */
  dir: z.string().min(1).default('MEMORY'),
  maxNotes: z.number().int().positive().default(5000),
  maxNoteBytes: z.number().int().positive().default(131072),
  indexChars: z.number().int().nonnegative().default(4000),
  recall: z
    .object({
      enabled: z.boolean().default(true),
      perTurn: z.number().int().nonnegative().default(3),
      budgetChars: z.number().int().nonnegative().default(2000),
      minScore: z.number().nonnegative().default(1.2),
    })
    .prefault({}),
  autoExtract: z
    .object({
      onCompaction: z.boolean().default(false),
      onStop: z.boolean().default(false),
      minUserTurns: z.number().int().nonnegative().default(3),
    })
    .prefault({}),
  consolidate: z
    .object({
      auto: ConsolidateAutoSchema.default('subscribers'),
      cooldownHours: z.number().nonnegative().default(24),
      maxMerges: z.number().int().nonnegative().default(3),
      unusedDays: z.number().nonnegative().default(90),
    })
    .prefault({}),
  /** How `retain` files facts by default (docs/agents.md): global | per-project | per-project-tagged. */
  retain: z
    .object({
      scoping: BankScopeSchema.default(DEFAULT_BANK_SCOPE),
    })
    .prefault({}),
});
export type MemoryConfig = z.infer<typeof MemoryConfigSchema>;

export const DEFAULT_MEMORY_CONFIG: MemoryConfig = MemoryConfigSchema.parse({});

export const CONFIG_LEAVES: readonly ConfigLeaf[] = [
  { key: 'memory.dir', schema: z.string().trim().min(1) },
  { key: 'memory.maxNotes', schema: z.number().int().positive() },
  { key: 'memory.maxNoteBytes', schema: z.number().int().positive() },
  { key: 'memory.indexChars', schema: z.number().int().nonnegative() },
  { key: 'memory.recall.enabled', schema: z.boolean() },
  { key: 'memory.recall.perTurn', schema: z.number().int().nonnegative() },
  { key: 'memory.recall.budgetChars', schema: z.number().int().nonnegative() },
  { key: 'memory.recall.minScore', schema: z.number().nonnegative() },
  { key: 'memory.autoExtract.onCompaction', schema: z.boolean(), projectMayOnlyTurnOff: true },
  { key: 'memory.autoExtract.onStop', schema: z.boolean(), projectMayOnlyTurnOff: true },
  { key: 'memory.autoExtract.minUserTurns', schema: z.number().int().nonnegative() },
  { key: 'memory.consolidate.auto', schema: ConsolidateAutoSchema, projectMayOnlyTurnOff: true },
  { key: 'memory.consolidate.cooldownHours', schema: z.number().nonnegative() },
  { key: 'memory.consolidate.maxMerges', schema: z.number().int().nonnegative() },
  { key: 'memory.consolidate.unusedDays', schema: z.number().nonnegative() },
  // Case and surrounding spaces do not matter (`GLOBAL`, ` per-project `).
  { key: 'memory.retain.scoping', schema: z.string().trim().toLowerCase().pipe(BankScopeSchema) },
];
