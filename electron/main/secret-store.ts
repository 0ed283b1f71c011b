import { promises as fs } from 'node:fs';
import path from 'node:path';
import { safeStorage } from 'electron';
import { writeFileAtomic } from '../memory/atomic-write.js';
import { secretProtection } from './secret-protection.js';
import { unlessMissing } from '../memory/unexpected-error.js';

/**
 * Tokens (sync access token, model API key) encrypted with the OS keychain through safeStorage,
 * stored as base64 in a 0600 JSON file in userData. Never in plain text: when the OS offers no real
 * encryption (a Linux session without a keyring: the `basic_text` backend) secrets are kept in
 * memory for this run only, and `onMemoryOnly` tells the person once (secret-protection.ts).
 */
export interface SecretStore {
  /** True when secrets are written to disk encrypted by the OS keychain. */
  available(): boolean;
  get(name: string): Promise<string | null>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<void>;
}

export function createSecretStore(
  userDataDir: string,
  opts: { onMemoryOnly?: (why: string) => void } = {},
): SecretStore {
  const protection = secretProtection({
    platform: process.platform,
    encryptionAvailable: safeStorage.isEncryptionAvailable(),
    ...(process.platform === 'linux' ? { linuxBackend: safeStorage.getSelectedStorageBackend() } : {}),
  });
  if (protection.atRest === 'memory') return memoryOnlySecrets(protection.why, opts.onMemoryOnly);
  const file = path.join(userDataDir, 'secrets.json');
  async function readAll(): Promise<Record<string, string>> {
    try {
      const data = JSON.parse(await fs.readFile(file, 'utf8')) as unknown;
      return data && typeof data === 'object' ? (data as Record<string, string>) : {};
    } catch (err) {
      unlessMissing(err, 'secret store: read');
      return {};
    }
  }
  async function writeAll(all: Record<string, string>): Promise<void> {
    await fs.mkdir(userDataDir, { recursive: true });
    await writeFileAtomic(file, JSON.stringify(all, null, 2) + '\n');
    await fs.chmod(file, 0o600).catch(() => undefined); // no POSIX modes on Windows: the user profile protects it
  }
  return {
    available: () => true,
    async get(name) {
      const v = (await readAll())[name];
      if (!v) return null;
      return safeStorage.decryptString(Buffer.from(v, 'base64'));
    },
    async set(name, value) {
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

/** Secrets held for this run only; the first one stored triggers `onMemoryOnly(why)`. */
function memoryOnlySecrets(why: string, onMemoryOnly?: (why: string) => void): SecretStore {
  const held = new Map<string, string>();
  let told = false;
  return {
    available: () => false,
    get: async (name) => held.get(name) ?? null,
    async set(name, value) {
      held.set(name, value);
      if (!told) {
        told = true;
        onMemoryOnly?.(
          `${why} Your sign-in and API key are kept only until Memory Desk quits; you will be asked again next time.`,
        );
      }
    },
    async delete(name) {
      held.delete(name);
    },
  };
}
