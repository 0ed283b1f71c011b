import { promises as fs } from 'node:fs';
import path from 'node:path';
import { safeStorage } from 'electron';
import { writeFileAtomic } from '../memory/atomic-write.js';

/**
 * Tokens (sync access token, model API key) encrypted with the OS keychain through safeStorage,
 * stored as base64 in a 0600 JSON file in userData. Refuses to store in plain text: when the OS
 * offers no encryption (a Linux session without a keyring) it says so instead.
 */
export interface SecretStore {
  available(): boolean;
  get(name: string): Promise<string | null>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<void>;
}

export function createSecretStore(userDataDir: string): SecretStore {
  const file = path.join(userDataDir, 'secrets.json');
  async function readAll(): Promise<Record<string, string>> {
    try {
      const data = JSON.parse(await fs.readFile(file, 'utf8')) as unknown;
      return data && typeof data === 'object' ? (data as Record<string, string>) : {};
    } catch {
      return {};
    }
  }
  async function writeAll(all: Record<string, string>): Promise<void> {
    await fs.mkdir(userDataDir, { recursive: true });
    await writeFileAtomic(file, JSON.stringify(all, null, 2) + '\n');
    await fs.chmod(file, 0o600).catch(() => undefined);
  }
  return {
    available: () => safeStorage.isEncryptionAvailable(),
    async get(name) {
      const v = (await readAll())[name];
      if (!v || !safeStorage.isEncryptionAvailable()) return null;
      return safeStorage.decryptString(Buffer.from(v, 'base64'));
    },
    async set(name, value) {
      if (!safeStorage.isEncryptionAvailable()) {
        throw new Error(
          'This system offers no secure storage for secrets (no keychain/keyring); the token was not saved.',
        );
      }
      const all = await readAll();
      all[name] = safeStorage.encryptString(value).toString('base64');
      await writeAll(all);
    },
    async delete(name) {
      const all = await readAll();
      delete all[name];
      await writeAll(all);
    },
  };
}
