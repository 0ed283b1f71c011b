import {
  changeEncryptionPassphrase,
  encryptionStatus,
  turnEncryptionOn,
  unlockEncryption,
  type EncryptionDeps,
  type ScopeRun,
} from '../../sync/crypto/encryption-ops.js';
import { syncEngineFor } from '../../sync/process-engine.js';
import type { HandlerContext } from '../context.js';
import type { ApiHandlers } from '../dispatch.js';

export type EncryptionHandlers = Pick<
  ApiHandlers,
  'encryption.status' | 'encryption.on' | 'encryption.unlock' | 'encryption.changePassphrase'
>;

/** End-to-end encryption for the Sync page and the CLI, on the process's sync engine. */
export function createEncryptionHandlers({ core }: HandlerContext): EncryptionHandlers {
  const deps = (): EncryptionDeps => {
    const engine = syncEngineFor(core);
    return {
      accounts: engine.accounts,
      keys: engine.keys,
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
    'encryption.status': () => encryptionStatus(deps()),
    'encryption.on': ({ passphrase }) => turnEncryptionOn(deps(), passphrase),
    'encryption.unlock': ({ passphrase, recoveryCode }) =>
      unlockEncryption(deps(), { passphrase, recoveryCode }),
    'encryption.changePassphrase': ({ passphrase, newPassphrase }) =>
      changeEncryptionPassphrase(deps(), passphrase, newPassphrase),
  };
}
