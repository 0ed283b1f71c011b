import os from 'node:os';
import { AppError } from '../../../shared/errors.js';
import { signInWithDeviceCode } from '../../sync/auth/device-sign-in.js';
import { type OidcCredential, serializeCredential } from '../../sync/auth/oidc-credential.js';
import { signInWithBrowser } from '../../sync/auth/oidc-sign-in.js';
import type { SyncAccount } from '../../sync/account.js';
import type { HandlerContext } from '../context.js';
import type { ApiHandlers } from '../dispatch.js';

export type AccountHandlers = Pick<
  ApiHandlers,
  'account.signIn' | 'account.signInDevice' | 'account.devices' | 'account.revokeDevice'
>;

/** Sign-in in the system browser and the account's devices, on the process's sync engine. */
export function createAccountHandlers(ctx: HandlerContext): AccountHandlers {
  const engine = () => ctx.sync.engine();

  const signedIn = async (): Promise<SyncAccount> => {
    const account = await (await engine()).accounts.current();
    if (!account)
      throw new AppError('refused', 'not signed in to a sync server (memdesk login --origin URL)');
    return account;
  };

  /** Either flow's tokens go to the token store the same way; answers who signed in. */
  const store = async (origin: string, credential: OidcCredential) => {
    const e = await engine();
    const result = await e.login(origin, serializeCredential(credential));
    const account = await e.accounts.current();
    const who = await account?.identity(AbortSignal.timeout(20_000), async () => undefined);
    return { ...result, ...(who ? { userId: who.userId } : {}) };
  };

  return {
    'account.signIn': async ({ origin, deviceName }) => {
      // Read at call time: the app sets it on the context after the handler table is made.
      const openExternal = ctx.openExternal;
      if (!openExternal)
        throw new AppError(
          'unavailable',
          'this program cannot show a sign-in page; sign in with a token instead',
        );
      const credential = await signInWithBrowser({
        origin,
        deviceName: deviceName ?? os.hostname(),
        openBrowser: openExternal,
      });
      return store(origin, credential);
    },
    'account.signInDevice': async ({ origin, deviceName }) => {
      const e = await engine();
      const credential = await signInWithDeviceCode({
        origin,
        deviceName: deviceName ?? os.hostname(),
        showCode: (prompt) => e.emit({ type: 'account.deviceCode', ...prompt }),
      });
      return store(origin, credential);
    },
    'account.devices': async () => (await signedIn()).client.devices(AbortSignal.timeout(20_000)),
    'account.revokeDevice': async ({ id }) => {
      const account = await signedIn();
      const { devices } = await account.client.devices(AbortSignal.timeout(20_000));
      const current = devices.find((d) => d.current)?.id === id;
      const { device } = await account.client.revokeDevice(id, AbortSignal.timeout(20_000));
      // This device's own sign-in is over: forget its tokens too (its notes stay).
      if (current) await (await engine()).logout();
      return { device, signedOut: current };
    },
  };
}
