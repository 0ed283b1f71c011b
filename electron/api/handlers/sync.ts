import { AppError } from '../../../shared/errors.js';
import type { Scope } from '../../../shared/note.js';
import type { SyncRoundReport, SyncStatus } from '../../../shared/api/sync.js';
import { appOnlySignInMessage, appSignIn } from '../../sync/owner/app-sign-in.js';
import { OwnerLock } from '../../sync/owner/owner-lock.js';
import { ownerPaths } from '../../sync/owner/paths.js';
import type { SyncEngine } from '../../sync/sync-engine.js';
import type { SyncService } from '../../sync/sync-service.js';
import type { HandlerContext } from '../context.js';
import type { ApiHandlers } from '../dispatch.js';
import { reportedOr } from '../../memory/unexpected-error.js';

export type SyncHandlers = Pick<
  ApiHandlers,
  | 'sync.status'
  | 'sync.now'
  | 'sync.setEnabled'
  | 'sync.login'
  | 'sync.logout'
  | 'sync.markInUse'
  | 'sync.conflicts'
  | 'sync.conflict'
  | 'sync.resolve'
>;

/** Cloud sync for the page and the CLI: the process's sync engine (ctx.sync), with this core's scopes. */
export function createSyncHandlers({ core, sync }: HandlerContext): SyncHandlers {
  const engine = (): Promise<SyncEngine> => sync.engine();
  const services = async (): Promise<SyncService[]> => (await engine()).servicesOf(core);

  const status = async (): Promise<SyncStatus> => {
    const e = await engine();
    const scopes = await Promise.all((await services()).map((s) => e.status(s)));
    const synced = scopes.map((s) => s.lastSyncedAt);
    const signedIn =
      scopes.some((s) => s.signedIn) ||
      (await e.accounts.current().catch(reportedOr(null, 'sync status: account'))) !== null;
    const appOrigin = signedIn ? null : appSignIn(e.paths.home);
    return {
      enabled: scopes.length > 0 && scopes.every((s) => s.enabled),
      signedIn,
      origin: await e.accounts.origin().catch(reportedOr(null, 'sync status: origin')),
      lastSyncedAt:
        synced.length > 0 && synced.every((t) => t !== null) ? Math.min(...(synced as number[])) : null,
      scopes,
      owner: syncOwner(e),
      waiting: appOrigin ? { reason: 'app_sign_in', message: appOnlySignInMessage(appOrigin) } : null,
    };
  };

  const findConflict = async (id: string, scope?: Scope): Promise<SyncService> => {
    for (const svc of await services()) {
      if (scope && svc.scope !== scope) continue;
      if ((await svc.conflicts()).some((c) => c.id === id)) return svc;
    }
    throw new AppError(
      'not_found',
      `there is no sync conflict for "${id}"${scope ? ` in ${scope} notes` : ''}`,
    );
  };

  return {
    'sync.status': status,
    'sync.now': async ({ deletes, scope }) => {
      const svcs = (await services()).filter((s) => !scope || s.scope === scope);
      // Run by the home's sync owner when another process owns sync (ProcessSync.roundNow).
      const reports = await sync.roundNow(svcs, deletes);
      const scopes: Partial<Record<Scope, SyncRoundReport>> = {};
      for (const svc of svcs) scopes[svc.scope] = reports.get(svc.key);
      return { scopes };
    },
    'sync.setEnabled': async ({ enabled }) => {
      await (await engine()).setEnabled(await services(), enabled);
      return status();
    },
    'sync.login': async ({ origin, token }) => {
      const e = await engine();
      const result = await e.login(origin, token);
      // Verify the token against the server's identity, unless sync is off (then no request goes out).
      const svcs = await services();
      if (svcs.length > 0 && !(await Promise.all(svcs.map((s) => s.enabled()))).some(Boolean)) return result;
      try {
        const account = await e.accounts.current();
        if (!account) throw new Error('the token was not kept');
        const who = await account.identity(AbortSignal.timeout(20_000), async () => undefined);
        return { ...result, userId: who.userId };
      } catch (err) {
        await e.logout();
        throw new AppError('refused', `Could not sign in to ${result.origin}: ${(err as Error).message}`);
      }
    },
    'sync.markInUse': async () => {
      (await engine()).markInUse(core);
      return { ok: true as const };
    },
    'sync.logout': async () => {
      await (await engine()).logout();
      return { ok: true as const };
    },
    'sync.conflicts': async () => {
      const out = [];
      for (const svc of await services())
        for (const c of await svc.conflicts())
          out.push({
            id: c.id,
            kind: c.kind,
            message: c.message,
            detectedAt: c.detectedAt,
            scope: svc.scope,
          });
      return { conflicts: out };
    },
    'sync.conflict': async ({ id, scope }) => {
      const svc = await findConflict(id, scope);
      const detail = await svc.conflict(id);
      return {
        id,
        scope: svc.scope,
        kind: detail.record.kind,
        message: detail.record.message,
        reasons: detail.reasons,
        base: detail.base,
        local: detail.local,
        cloud: detail.cloud,
        draft: {
          summary: detail.draft.summary,
          ...(detail.draft.type ? { type: detail.draft.type } : {}),
          tags: detail.draft.tags,
          body: detail.draft.body,
        },
      };
    },
    'sync.resolve': async ({ id, scope, keep, merged }) => {
      const svc = await findConflict(id, scope);
      const result = await svc.resolve(id, merged ? { merged } : { keep: keep! });
      // The resolution reaches the cloud with the next round (a few seconds later in the app).
      (await engine()).coordinator.localWrite(svc.key);
      return { id, scope: svc.scope, ...(result.newId ? { newId: result.newId } : {}) };
    },
  };
}

/** The home's live sync owner as `sync.status` shows it (read from its lock file). */
function syncOwner(engine: SyncEngine): SyncStatus['owner'] {
  const lock = new OwnerLock(ownerPaths(engine.paths.home).lockFile, { clock: engine.clock, role: 'cli' });
  const owner = lock.owner();
  return owner
    ? { pid: owner.pid, role: owner.role, since: owner.since, thisProcess: owner.pid === process.pid }
    : null;
}
