import type { KeyStore } from '../cleanup/model/key-store.js';
import type { SecretStore } from './secret-store.js';

/** 待整理's model API key kept with safeStorage (the OS keychain), never in a config file. */
export function secretKeyStore(secrets: SecretStore): KeyStore {
  const NAME = 'cleanup-model-key';
  return {
    get: () => secrets.get(NAME),
    set: (key) => (key === null ? secrets.delete(NAME) : secrets.set(NAME, key)),
  };
}
