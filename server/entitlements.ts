import { z } from 'zod';
import { EntitlementClaimSchema, type SyncPlanLimits, type SyncPlanName } from '../shared/sync-protocol.js';
import defaultEntitlementsJson from './memory-entitlements.json' with { type: 'json' };

/**
 * Plan entitlements (server/memory-entitlements.json, or the file named by
 * OHARNESS_SYNC_ENTITLEMENTS): which plan names count as paid, and the free plan's limits.
 * Paid plans have no plan limit, only the server's quotas.
 */
export const EntitlementsSchema = z.object({
  paidPlans: z.array(z.string()),
  free: z.object({
    notesPerScope: z.number().int().positive(),
    bytesPerNote: z.number().int().positive(),
  }),
});
export type Entitlements = z.infer<typeof EntitlementsSchema>;

export const DEFAULT_ENTITLEMENTS: Entitlements = EntitlementsSchema.parse(defaultEntitlementsJson);

/** Paid if the account's own plan, or the plan of any team in the claim, is a paid plan. */
export function planFromClaim(ent: unknown, entitlements: Entitlements): SyncPlanName {
  const parsed = EntitlementClaimSchema.safeParse(ent);
  if (!parsed.success) return 'free';
  const paid = new Set(entitlements.paidPlans);
  if (parsed.data.plan !== undefined && paid.has(parsed.data.plan)) return 'paid';
  if ((parsed.data.teams ?? []).some((team) => team.plan !== undefined && paid.has(team.plan))) return 'paid';
  return 'free';
}

export function planLimits(plan: SyncPlanName, entitlements: Entitlements): SyncPlanLimits {
  if (plan === 'paid') return { notesPerScope: null, noteBytes: null };
  return { notesPerScope: entitlements.free.notesPerScope, noteBytes: entitlements.free.bytesPerNote };
}
