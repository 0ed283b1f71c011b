import type { SyncRoundReport } from '../../shared/api/sync.js';
import type { RoundResult } from './coordinator.js';
import { appOnlySignInMessage, appSignIn } from './owner/app-sign-in.js';
import type { SyncEngine } from './sync-engine.js';
import type { SyncService } from './sync-service.js';

/** The person's answer to the mass-delete question (`memdesk sync --deletes`, the page's buttons). */
export type DeletesDecision = 'delete' | 'keep';

/**
 * 立即同步 in the process that runs it: the mass-delete answer (kept by the service until its next
 * round) for each directory asking it, one round per directory at once, and what each round did —
 * the per-scope report `sync.now` answers with, keyed by directory. The sync owner runs this for
 * rounds other processes ask of it (owner/ask-round.ts), so the person sees the same answer
 * whichever process ran the round.
 */
export async function roundsHere(
  engine: SyncEngine,
  services: SyncService[],
  deletes?: DeletesDecision,
): Promise<Map<string, SyncRoundReport>> {
  if (deletes)
    for (const svc of services)
      if (svc.reportOf(await svc.state()).pendingDeletes) await svc.decidePendingDeletes(deletes);
  const results = await engine.syncNow(services);
  const out = new Map<string, SyncRoundReport>();
  for (const svc of services) out.set(svc.key, await roundReport(engine, svc, results.get(svc)));
  return out;
}

async function roundReport(
  engine: SyncEngine,
  svc: SyncService,
  result: RoundResult | undefined,
): Promise<SyncRoundReport> {
  const conflicts = (await svc.conflicts()).map((c) => c.id);
  const round = svc.lastRound;
  let error = svc.error ? { code: svc.error.code, message: svc.error.message } : null;
  if (!error && result?.outcome === 'blocked') {
    const gate = await svc.gate();
    if (!gate.ok)
      error =
        gate.reason === 'off'
          ? {
              code: 'sync_off',
              message: `${svc.scope === 'user' ? 'Your own notes' : 'Project notes'}: cloud sync is off (关闭云同步); turn it on to sync`,
            }
          : {
              code: 'signed_out',
              message: 'not signed in to a sync server (memdesk login --origin URL --token TOKEN)',
            };
  }
  // Signed out here while the desktop app holds the home's sign-in: that is what the person needs.
  const appOrigin = error?.code === 'signed_out' ? appSignIn(engine.paths.home) : null;
  if (appOrigin) error = { code: 'signed_out', message: appOnlySignInMessage(appOrigin) };
  return {
    pulled: round?.pulled ?? { added: 0, changed: 0, deleted: 0 },
    pushed: round?.pushed ?? 0,
    conflicts,
    error,
    notices: round ? svc.notices : [],
    localOnly: round ? svc.reportOf(await svc.state()).localOnly : [],
    held: round?.held ?? [],
    historyReset: round?.historyReset ?? false,
  };
}
