import { SYNC_PROTOCOL_VERSION, type SyncLimits } from '../../../shared/sync-protocol.js';
import type { SyncStatusCode } from '../../../shared/sync-status.js';
import type { SyncAccount } from '../account.js';
import type { RoundContext } from '../coordinator.js';
import { scoped } from '../scope-labels.js';
import type { RoundDeps, ScopeError } from './types.js';

/** Protocol version to speak with a server announcing `current`. */
export function protocolFor(serverCurrent: number): number {
  return Math.min(SYNC_PROTOCOL_VERSION, serverCurrent);
}

export type GateOutcome =
  | { open: true; account: SyncAccount; protocol: number; userId: string; limits: SyncLimits }
  /** Nothing to do: sync off, signed out, another account, a protocol neither side speaks. */
  | { open: false; error: ScopeError | null; limits: SyncLimits | null };

/**
 * Step 1 of a round: the toggle, the sign-in, the account binding (the scope belongs to the first
 * account + origin that synced it) and the protocol.
 */
export async function openRound(deps: RoundDeps, ctx: RoundContext): Promise<GateOutcome> {
  const { scope } = deps;
  const gate = await deps.gate();
  if (!gate.ok) {
    const error: ScopeError | null =
      gate.reason === 'signed_out'
        ? {
            code: 'signed_out',
            message: scoped(scope, 'not signed in to a sync server; notes stay on this computer'),
            scope,
          }
        : null;
    return { open: false, error, limits: null };
  }
  const { account } = gate;
  const identity = await account.identity(ctx.signal, ctx.beforeRequest);
  if (deps.hooks.point) await deps.hooks.point('gate:identity');
  const limits = identity.limits;
  const blocked = (code: SyncStatusCode, message: string): GateOutcome => ({
    open: false,
    error: { code, message: scoped(scope, message), scope },
    limits,
  });
  const target = await deps.targets.get(deps.keyHash);
  if (!(await deps.enabled())) return { open: false, error: null, limits };
  if (
    target?.userId &&
    target.origin &&
    (target.userId !== identity.userId || target.origin !== account.origin)
  ) {
    return blocked(
      'account_mismatch',
      `these notes were synced as ${target.userId} on ${target.origin}; you are signed in as ${identity.userId} on ${account.origin}. Sync is paused so notes of two accounts never mix — sign in with the first account again.`,
    );
  }
  const protocol = protocolFor(identity.protocol.current);
  if (identity.protocol.min > protocol || identity.protocol.min > SYNC_PROTOCOL_VERSION) {
    return blocked(
      'client_too_old',
      `the sync server needs protocol ${identity.protocol.min} or newer; upgrade Memory Desk`,
    );
  }
  if (protocol < 2 && scope === 'user') {
    return blocked(
      'server_too_old',
      'the sync server is too old to sync your own notes; upgrade the sync server (project notes without a type still sync)',
    );
  }
  account.client.protocolVersion = protocol;
  if (deps.hooks.point) await deps.hooks.point('gate:bind');
  if (!target?.userId)
    await deps.targets.bind(deps.keyHash, { userId: identity.userId, origin: account.origin });
  return { open: true, account, protocol, userId: identity.userId, limits };
}
