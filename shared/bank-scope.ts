import { z } from './zod-mini.js';

/**
 * Where retained facts go: global → user scope; per-project → project scope; per-project-tagged →
 * user scope + `project:<label>` tag. Apart from the agents API table (shared/api/agents.ts
 * re-exports it) because the memory config's schema needs it, and every command reads the config:
 * importing the table for this enum built all its schemas (and the notes table's) on every start.
 */
export const BANK_SCOPES = ['global', 'per-project', 'per-project-tagged'] as const;
export const BankScopeSchema = z.enum(BANK_SCOPES);
export type BankScope = z.infer<typeof BankScopeSchema>;
export const DEFAULT_BANK_SCOPE: BankScope = 'per-project-tagged';
