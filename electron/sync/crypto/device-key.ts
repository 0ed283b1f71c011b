import path from 'node:path';
import { z } from 'zod';
import type { SyncHttpClientOptions } from '../http-client.js';
import type { TokenStore } from '../token-store.js';
import { deriveAccountKeys, masterKeyId } from './account-keys.js';
import { fromBase64Url, systemRandom, toBase64Url } from './bytes.js';
import { SealedSyncClient } from './sealed-client.js';
import { SeenVersions } from './seen-versions.js';

/**
 * This device's copy of an encrypted account's master key, kept per origin in a TokenStore: the
 * desktop app's is safeStorage (the OS keychain); the CLI's is a mode-0600 file, as its sync token
 * is — readable by anything running as you, which is the same trust the token already has.
 * `reupload` marks an `encryption on` that has not finished re-uploading and removing the
 * unencrypted copy; running it again resumes.
 */
const DeviceKeySchema = z.object({
  keyId: z.string().regex(/^[0-9a-f]{32}$/),
  master: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  reupload: z.boolean(),
});
export type DeviceKey = z.infer<typeof DeviceKeySchema>;

export async function readDeviceKey(store: TokenStore, origin: string): Promise<DeviceKey | null> {
  const text = await store.get(origin);
  if (text === null) return null;
  let parsed: z.ZodSafeParseResult<DeviceKey>;
  try {
    parsed = DeviceKeySchema.safeParse(JSON.parse(text));
  } catch {
    return null; // not JSON: no usable device key (the person unlocks again)
  }
  if (!parsed.success || masterKeyId(masterOf(parsed.data)) !== parsed.data.keyId) return null;
  return parsed.data;
}

export async function writeDeviceKey(
  store: TokenStore,
  origin: string,
  master: Uint8Array,
  reupload: boolean,
): Promise<DeviceKey> {
  const key: DeviceKey = { keyId: masterKeyId(master), master: toBase64Url(master), reupload };
  await store.set(origin, JSON.stringify(key));
  return key;
}

export function masterOf(key: DeviceKey): Uint8Array {
  return fromBase64Url(key.master)!;
}

export function sealedClient(
  opts: SyncHttpClientOptions,
  key: DeviceKey,
  seenDir: string,
  onCommitted: (changes: number) => void,
): SealedSyncClient {
  const keys = deriveAccountKeys(masterOf(key));
  return new SealedSyncClient(
    opts,
    keys,
    new SeenVersions(path.join(seenDir, `${key.keyId}.json`), key.keyId),
    systemRandom,
    onCommitted,
  );
}
