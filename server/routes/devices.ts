import type { DevicesResponseSchema, Device } from '../../shared/sync-auth.js';
import type { z } from 'zod';
import type { SignIn } from '../oidc/sign-in.js';
import { SyncError } from '../sync-error.js';

type BuiltIn = NonNullable<SignIn['builtIn']>;

/** The caller's own devices: the account is the token's `sub`, so no one sees another's. */
export async function listDevices(
  builtIn: BuiltIn,
  sub: string,
  currentDevice: string | undefined,
): Promise<z.infer<typeof DevicesResponseSchema>> {
  const devices: Device[] = (await builtIn.devices.list(sub)).map((d) => ({
    ...d,
    current: d.id === currentDevice,
  }));
  return { devices };
}

/** Marks the device revoked and ends its grant (its refresh token stops working at once). */
export async function revokeDevice(
  builtIn: BuiltIn,
  sub: string,
  id: string,
  now: number,
): Promise<{ device: Device }> {
  const record = await builtIn.devices.update(sub, id, (d) =>
    d.revokedAt === null ? { ...d, revokedAt: now } : d,
  );
  if (!record) throw new SyncError('not_found', `This account has no device ${id}.`);
  await builtIn.provider.endGrant(id);
  builtIn.check.forget(sub, id);
  return { device: { ...record, current: false } };
}
