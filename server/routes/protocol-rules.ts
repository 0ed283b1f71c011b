import type { SyncScope } from '../../shared/sync-protocol.js';
import type { Caller } from '../context.js';
import { SyncError } from '../sync-error.js';

/** Protocol 1 (old clients) knew only project notes without types. */
export function requireProtocolForScope(caller: Caller, scope: SyncScope): void {
  if (caller.protocol < 2 && scope.kind === 'user') {
    throw new SyncError(
      'upgrade_required',
      'Syncing your own (user-level) notes needs a newer version of the app. Update the app to sync them.',
      { min: 2, current: 2 },
    );
  }
}
