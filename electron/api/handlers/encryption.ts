import {
  changeEncryptionPassphrase,
  encryptionStatus,
  turnEncryptionOn,
  unlockEncryption,
  type EncryptionDeps,
  type ScopeRun,
} from '../../sync/crypto/encryption-ops.js';
import type { HandlerContext } from '../context.js';
import type { ApiHandlers } from '../dispatch.js';

export type EncryptionHandlers = Pick<
  ApiHandlers,
  'encryption.status' | 'encryption.on' | 'encryption.unlock' | 'encryption.changePassphrase'
>;

/** End-to-end encryption for the Sync page and the CLI, on the process's sync engine. */
export function createEncryptionHandlers({ core, sync }: HandlerContext): EncryptionHandlers {
  const deps = async (): Promise<EncryptionDeps> => {
    const engine = await sync.engine();
    return {
      accounts: engine.accounts,
      keys: engine.keys,
      ...(engine.kdfCostForTests ? { logN: engine.kdfCostForTests.logN } : {}),
      noteCount: () => engine.servicesOf(core).reduce((n, svc) => n + svc.store.list().length, 0),
      progress: (p) => engine.emit({ type: 'encryption.progress', ...p }),
      syncOn: async () =>
        (await Promise.all(engine.servicesOf(core).map((svc) => svc.enabled().catch(() => true)))).some(
          Boolean,
        ),
      async syncAll(): Promise<ScopeRun[]> {
        const services = engine.servicesOf(core);
        const results = await engine.syncNow(services);
        return services.map((svc) => {
          const round = svc.lastRound;
          const outcome = results.get(svc)?.outcome;
          const error = svc.error
            ? { code: svc.error.code, message: svc.error.message }
            : outcome === 'ok'
              ? null
              : {
                  code: outcome ?? 'not_run',
                  message: 'this scope did not sync (sync off, signed out, or offline)',
                };
          const pulled = round ? round.pulled.added + round.pulled.changed + round.pulled.deleted : 0;
          return { scope: svc.scope, pushed: round?.pushed ?? 0, pulled, error };
        });
      },
    };
  };
  return {
    'encryption.status': async () => encryptionStatus(await deps()),
    // Both switch the account's rounds to sealed ones between rounds of their own: no other
    // process of the home runs a round meanwhile (docs/sync-engine.md, "Encryption changes").
    'encryption.on': async ({ passphrase }) =>
      sync.holdRounds(async () => turnEncryptionOn(await deps(), passphrase)),
    'encryption.unlock': async ({ passphrase, recoveryCode }) =>
      sync.holdRounds(async () => unlockEncryption(await deps(), { passphrase, recoveryCode })),
    'encryption.changePassphrase': async ({ passphrase, newPassphrase }) =>
      changeEncryptionPassphrase(await deps(), passphrase, newPassphrase),
  };
}
