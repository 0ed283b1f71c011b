import { deriveAccountKeys, type AccountKeys } from '../../electron/sync/crypto/account-keys.js';
import { writeDeviceKey } from '../../electron/sync/crypto/device-key.js';
import { createKeyring } from '../../electron/sync/crypto/keyring.js';
import { openObject, openRecord } from '../../electron/sync/crypto/sealed-object.js';
import { normalizeOrigin } from '../../electron/sync/cloud-config.js';
import { SyncHttpClient } from '../../electron/sync/http-client.js';
import { MemoryTokenStore, type TokenStore } from '../../electron/sync/token-store.js';
import { parseManifest } from '../../server/manifest.js';
import { manifestKey } from '../../server/storage-keys.js';
import { readRevisions } from '../../server/revisions.js';
import type { ScopeState, SimCluster } from './cluster.js';

/**
 * How the simulation's account differs from a plain one: made ready once (a keyring published),
 * the key each device process starts with, and the user scope as the server's store holds it, in
 * the clear, for the convergence check.
 */
export interface SimAccountMode {
  prepare(origin: string, token: string): Promise<void>;
  deviceKeys(origin: string): Promise<TokenStore | undefined>;
  read(cluster: SimCluster, user: string): Promise<ScopeState>;
}

/**
 * An end-to-end encrypted account: the keyring is published before any device syncs (scrypt 2^10)
 * and every device process holds the key, so every round goes through the sealed client; the
 * store is read back by opening each sealed entry record and object with the account's keys.
 */
export function encryptedAccount(): SimAccountMode {
  let master: Uint8Array | null = null;
  let keys: AccountKeys | null = null;
  return {
    async prepare(origin, token) {
      const made = await createKeyring('simulated passphrase', { logN: 10 });
      await new SyncHttpClient({ origin, token }).updateKeyring({ keyring: made.keyring, revision: 0 });
      master = made.master;
      keys = deriveAccountKeys(made.master);
    },
    async deviceKeys(origin) {
      const store = new MemoryTokenStore();
      await writeDeviceKey(store, normalizeOrigin(origin), master!, false);
      return store;
    },
    async read(cluster, user) {
      const scope = { kind: 'user' } as const;
      if (await cluster.reader.get(manifestKey(user, scope)))
        throw new Error('an encrypted account has an unencrypted manifest in the store');
      const key = manifestKey(user, scope, true);
      const stored = await cluster.reader.get(key);
      const notes = new Map<string, { hash: string; content: string }>();
      if (!stored) return { version: 0, notes };
      const manifest = parseManifest(stored.body, key);
      const active = manifest.entries.filter((entry) => entry.hash !== null);
      const objects = new Map(
        (
          await readRevisions(cluster.reader, { sub: user, scope, sealed: true }, active).catch(
            (err: unknown) => {
              throw new Error(
                `the store lacks a sealed revision its manifest names: ${(err as Error).message}`,
              );
            },
          )
        ).map((object) => [object.id, object]),
      );
      for (const entry of manifest.entries) {
        const record = openRecord(keys!, 'user', { id: entry.id, hash: entry.hash, meta: entry.meta ?? '' });
        if (entry.hash === null) continue;
        const plain = openObject(keys!, 'user', {
          id: entry.id,
          hash: entry.hash,
          content: objects.get(entry.id)!.content,
        });
        if (plain.id !== record.id || plain.hash !== record.hash)
          throw new Error(`the sealed record and object of "${record.id}" disagree`);
        notes.set(plain.id, { hash: plain.hash, content: plain.content });
      }
      return { version: manifest.version, notes };
    },
  };
}
