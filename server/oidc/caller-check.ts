import { SyncError } from '../sync-error.js';
import type { AccountStore } from './accounts.js';
import type { DeviceStore, DeviceRecord } from './devices.js';

/**
 * With the built-in provider, a valid access token is not enough: its account must not be
 * disabled and its device (`did`) not revoked. Both are read from storage and remembered for
 * `cacheMs` (default 15 s), so a poll costs no extra reads; a revocation made through this server
 * takes effect at once, one made by `sync-server user disable` or another instance within
 * `cacheMs`. Also records when each device was last seen (at most every `lastSeenEveryMs`).
 */
export class CallerCheck {
  private readonly cache = new Map<string, { at: number; disabled: boolean; device: DeviceRecord | null }>();

  constructor(
    private readonly accounts: AccountStore,
    private readonly devices: DeviceStore,
    private readonly now: () => number,
    private readonly cacheMs = 15_000,
    private readonly lastSeenEveryMs = 5 * 60_000,
  ) {}

  async check(sub: string, deviceId: string | undefined): Promise<void> {
    if (!deviceId) throw new SyncError('unauthorized', 'The access token names no device: sign in again.');
    const key = `${sub}\n${deviceId}`;
    let known = this.cache.get(key);
    if (!known || this.now() - known.at >= this.cacheMs) {
      const [account, device] = await Promise.all([this.accounts.get(sub), this.devices.get(sub, deviceId)]);
      known = { at: this.now(), disabled: !account || account.disabledAt !== null, device };
      this.cache.set(key, known);
      if (this.cache.size > 10_000) this.cache.delete(this.cache.keys().next().value!);
    }
    if (known.disabled) throw accountDisabled(sub);
    if (!known.device || known.device.revokedAt !== null)
      throw new SyncError(
        'unauthorized',
        `This device was signed out of the sync server${known.device?.revokedAt ? ` on ${new Date(known.device.revokedAt).toISOString().slice(0, 16).replace('T', ' ')} UTC` : ''}. Notes on this computer are kept; sign in again to sync.`,
        { reason: 'device_revoked' },
      );
    const seen = known.device.lastSeenAt;
    if (seen === null || this.now() - seen >= this.lastSeenEveryMs) {
      const at = this.now();
      known.device =
        (await this.devices.update(sub, deviceId, (d) => ({ ...d, lastSeenAt: at }))) ?? known.device;
    }
  }

  /**
   * A token the server accepts besides sign-in (`sync-server token`'s secret, a JWKS) names no
   * device; its account, if the built-in provider has one by that name, must not be disabled.
   */
  async checkAccount(sub: string): Promise<void> {
    const key = `${sub}\n`;
    let known = this.cache.get(key);
    if (!known || this.now() - known.at >= this.cacheMs) {
      const account = await this.accounts.get(sub);
      known = { at: this.now(), disabled: account !== null && account.disabledAt !== null, device: null };
      this.cache.set(key, known);
    }
    if (known.disabled) throw accountDisabled(sub);
  }

  /** After a revocation through this server: the next request reads the record again. */
  forget(sub: string, deviceId: string): void {
    this.cache.delete(`${sub}\n${deviceId}`);
  }
}

function accountDisabled(sub: string): SyncError {
  return new SyncError(
    'unauthorized',
    `The account "${sub}" is disabled on this sync server; ask whoever runs it. Notes on this computer are kept.`,
    { reason: 'account_disabled' },
  );
}
