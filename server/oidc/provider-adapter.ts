import { userSegment } from '../storage-keys.js';
import type { StorageAdapter } from '../storage/storage.js';

/**
 * oidc-provider's persistence (its "adapter" interface) on the sync server's storage, so sessions,
 * grants, authorization codes and refresh tokens live wherever the notes do (filesystem or S3)
 * and survive a restart or a second server instance. One object per model instance:
 *   auth/oidc/<Model>/<id>.json          {payload, expiresAt}
 *   auth/oidc/by-grant/<grant>/<Model>~<id>   an index entry, so a grant's tokens can be revoked
 *   auth/oidc/by-uid/<uid>, auth/oidc/by-user-code/<code>   lookups the provider needs
 * Expired objects are answered as missing and removed when next read — `keepExpiredSeconds` after
 * they expire, for a model whose expiry the provider itself tells apart from "unknown".
 */
export interface ProviderPayload {
  grantId?: string;
  uid?: string;
  userCode?: string;
  consumed?: number;
  [key: string]: unknown;
}

interface Stored {
  payload: ProviderPayload;
  /** When it stops being answered (ms since the epoch), or null for never. */
  expiresAt: number | null;
}

const ROOT = 'auth/oidc/';

export class StorageProviderAdapter {
  constructor(
    private readonly storage: StorageAdapter,
    private readonly model: string,
    private readonly now: () => number = Date.now,
    private readonly keepExpiredSeconds = 0,
  ) {}

  private key(id: string): string {
    return `${ROOT}${userSegment(this.model)}/${userSegment(id)}.json`;
  }

  async upsert(id: string, payload: ProviderPayload, expiresIn?: number): Promise<void> {
    const stored: Stored = {
      payload,
      expiresAt: expiresIn ? this.now() + (expiresIn + this.keepExpiredSeconds) * 1000 : null,
    };
    await this.storage.put(this.key(id), JSON.stringify(stored));
    if (payload.grantId)
      await this.storage.put(
        `${ROOT}by-grant/${userSegment(payload.grantId)}/${userSegment(this.model)}~${userSegment(id)}`,
        id,
      );
    if (payload.uid) await this.storage.put(`${ROOT}by-uid/${userSegment(payload.uid)}`, id);
    if (payload.userCode) await this.storage.put(`${ROOT}by-user-code/${userSegment(payload.userCode)}`, id);
  }

  async find(id: string): Promise<ProviderPayload | undefined> {
    return (await this.read(id))?.payload;
  }

  async findByUid(uid: string): Promise<ProviderPayload | undefined> {
    return this.findVia(`${ROOT}by-uid/${userSegment(uid)}`);
  }

  async findByUserCode(userCode: string): Promise<ProviderPayload | undefined> {
    return this.findVia(`${ROOT}by-user-code/${userSegment(userCode)}`);
  }

  async consume(id: string): Promise<void> {
    const stored = await this.read(id);
    if (!stored) return;
    stored.payload.consumed = Math.floor(this.now() / 1000);
    await this.storage.put(this.key(id), JSON.stringify(stored));
  }

  async destroy(id: string): Promise<void> {
    await this.storage.delete(this.key(id));
  }

  /** Removes everything issued under the grant, whichever model it is (codes, tokens, sessions). */
  async revokeByGrantId(grantId: string): Promise<void> {
    const prefix = `${ROOT}by-grant/${userSegment(grantId)}/`;
    for (const entry of await this.storage.list(prefix)) {
      // Model names are plain words, so the first `~` ends it (escaped ids may hold more).
      const name = entry.slice(prefix.length);
      const cut = name.indexOf('~');
      await this.storage.delete(`${ROOT}${name.slice(0, cut)}/${name.slice(cut + 1)}.json`);
      await this.storage.delete(entry);
    }
  }

  private async findVia(indexKey: string): Promise<ProviderPayload | undefined> {
    const index = await this.storage.get(indexKey);
    return index ? this.find(index.body.toString('utf8')) : undefined;
  }

  private async read(id: string): Promise<Stored | null> {
    const object = await this.storage.get(this.key(id));
    if (!object) return null;
    const stored = JSON.parse(object.body.toString('utf8')) as Stored;
    if (stored.expiresAt !== null && stored.expiresAt <= this.now()) {
      await this.storage.delete(this.key(id));
      return null;
    }
    return stored;
  }
}
