import type { TokenStore } from '../sync/token-store.js';
import type { SecretStore } from './secret-store.js';
import { onUnexpectedError } from '../memory/unexpected-error.js';

/**
 * Sync tokens kept with safeStorage (the OS keychain): one encrypted JSON map {origin: token}.
 * The end-to-end encryption keys use the same, under another name (`sync-e2ee-keys`).
 */
export function secretTokenStore(secrets: SecretStore, NAME = 'sync-tokens'): TokenStore {
  const read = async (): Promise<Record<string, string>> => {
    const text = await secrets.get(NAME);
    if (!text) return {};
    try {
      const data = JSON.parse(text) as unknown;
      return data && typeof data === 'object' ? (data as Record<string, string>) : {};
    } catch (err) {
      onUnexpectedError(err, 'sync tokens: parse'); // signed out rather than not starting
      return {};
    }
  };
  return {
    async get(origin) {
      return (await read())[origin] ?? null;
    },
    async set(origin, token) {
      const all = await read();
      all[origin] = token;
      await secrets.set(NAME, JSON.stringify(all));
    },
    async clear(origin) {
      if (origin === undefined) return secrets.delete(NAME);
      const all = await read();
      delete all[origin];
      await secrets.set(NAME, JSON.stringify(all));
    },
  };
}
