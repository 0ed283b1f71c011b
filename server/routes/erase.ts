import type { EraseResponse } from '../../shared/sync-protocol.js';
import type { ServerDeps } from '../context.js';
import { eraseMarkerKey, userPrefix } from '../storage-keys.js';
import { PreconditionFailedError } from '../storage/storage.js';

/**
 * Erases an account's synced memory: the marker first (from then on every request of the account
 * is refused with `account_erased`, so a device still signed in cannot upload it again), then
 * every object under users/<user>/. Safe to repeat; the gateway calls it before deleting the
 * account and once more afterwards, which also sweeps up a commit that was in flight.
 */
export async function erase(
  deps: ServerDeps,
  userId: string,
  onErased: (sub: string) => void,
): Promise<EraseResponse> {
  const marker = JSON.stringify({ erasedAt: deps.now() });
  try {
    await deps.storage.put(eraseMarkerKey(userId), marker, { ifNoneMatch: '*' });
  } catch (err) {
    if (!(err instanceof PreconditionFailedError)) throw err; // already erased: keep the first marker
  }
  onErased(userId);
  const removedObjects = await deps.storage.deletePrefix(userPrefix(userId));
  return { userId, erased: true, removedObjects };
}
