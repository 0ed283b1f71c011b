import { ProtocolRangeSchema, type IdentityResponse } from '../../shared/sync-protocol.js';
import { normalizeOrigin, readCloudUrl, writeCloudUrl } from './cloud-config.js';
import { SyncHttpClient, SyncRequestError, type TransferStats } from './http-client.js';
import { readDeviceKey, sealedClient } from './crypto/device-key.js';
import type { SyncPaths } from './sync-paths.js';
import type { TokenStore } from './token-store.js';
import { accessTokenFor } from './auth/access-token.js';

/**
 * Who this process syncs as: the cloud URL from cloud.json and the token from the TokenStore.
 * One HTTP client per account; the identity answer is cached for a while (every response
 * announces the limits anyway), so a quiet poll is a single snapshot request.
 */
export interface SyncAccount {
  origin: string;
  /** What baselines are bound to when it is not `origin`: an encrypted account adds its key id. */
  baselineOrigin?: string;
  client: SyncHttpClient;
  identity(signal: AbortSignal, beforeRequest: () => Promise<void>): Promise<IdentityResponse>;
}

export interface AccountSourceOptions {
  fetch?: typeof fetch;
  /** How long an identity answer is trusted (ms). */
  identityTtlMs?: number;
  now?: () => number;
  /** The end-to-end encryption key of this device, per origin (crypto/device-key.ts). */
  keys?: TokenStore;
}

export class AccountSource {
  private cached: { key: string; account: SyncAccount } | null = null;
  /** Requests and bytes of every client this source made (bench/sync). */
  readonly stats: TransferStats = { requests: 0, bytesSent: 0, bytesReceived: 0 };
  /** Told how many sealed changes each commit of an encrypted account carried (`encryption on`). */
  readonly sealedCommits = new Set<(changes: number) => void>();

  constructor(
    readonly paths: SyncPaths,
    readonly tokens: TokenStore,
    private readonly opts: AccountSourceOptions = {},
  ) {}

  async current(): Promise<SyncAccount | null> {
    const url = await readCloudUrl(this.paths.cloudFile);
    if (!url) return null;
    const origin = normalizeOrigin(url);
    // Renews a signed-in token when it is about to expire (throws `unauthorized` if refused).
    const token = await accessTokenFor(this.tokens, origin, this.opts.now);
    if (!token) return null;
    const deviceKey = this.opts.keys ? await readDeviceKey(this.opts.keys, origin) : null;
    const key = `${origin}\n${token}\n${deviceKey?.keyId ?? ''}`;
    if (this.cached?.key === key) return this.cached.account;
    const clientOptions = { origin: url, token, ...(this.opts.fetch ? { fetch: this.opts.fetch } : {}) };
    // An unlocked encrypted account: the same client, sealing and opening at the boundary.
    const client = deviceKey
      ? sealedClient(clientOptions, deviceKey, this.paths.seenDir, (changes) => {
          for (const listener of this.sealedCommits) listener(changes);
        })
      : new SyncHttpClient(clientOptions);
    // Aggregate the stats of every client (one per token) in one place.
    (client as { stats: TransferStats }).stats = this.stats;
    const ttl = this.opts.identityTtlMs ?? 10 * 60_000;
    const now = this.opts.now ?? Date.now;
    let identity: { at: number; value: IdentityResponse } | null = null;
    const account: SyncAccount = {
      origin,
      ...(deviceKey ? { baselineOrigin: `${origin}#e2ee-${deviceKey.keyId}` } : {}),
      client,
      identity: async (signal, beforeRequest) => {
        if (identity && now() - identity.at < ttl) return identity.value;
        await beforeRequest();
        let value: IdentityResponse;
        try {
          value = await client.identity(signal);
        } catch (err) {
          // An older server refuses a newer protocol and names the range it speaks: fall back to it.
          const range = ProtocolRangeSchema.safeParse(err instanceof SyncRequestError ? err.details : null);
          if (
            !(err instanceof SyncRequestError) ||
            err.failure !== 'protocol_unsupported' ||
            !range.success ||
            range.data.current >= client.protocolVersion
          )
            throw err;
          client.protocolVersion = range.data.current;
          await beforeRequest();
          value = await client.identity(signal);
        }
        identity = { at: now(), value };
        return value;
      },
    };
    this.cached = { key, account };
    return account;
  }

  /** Forget the cached identity (after a 401, a logout or a login). */
  reset(): void {
    this.cached = null;
  }

  async login(url: string, token: string): Promise<{ origin: string }> {
    const origin = normalizeOrigin(url);
    await writeCloudUrl(this.paths.cloudFile, url.replace(/\/+$/, ''));
    await this.tokens.set(origin, token);
    this.reset();
    return { origin };
  }

  async logout(): Promise<void> {
    const url = await readCloudUrl(this.paths.cloudFile);
    if (url) await this.tokens.clear(normalizeOrigin(url));
    // The encryption key is a credential too: signing out forgets it (unlock again after signing in).
    if (url && this.opts.keys) await this.opts.keys.clear(normalizeOrigin(url));
    this.reset();
  }

  async origin(): Promise<string | null> {
    const url = await readCloudUrl(this.paths.cloudFile);
    return url ? normalizeOrigin(url) : null;
  }
}
