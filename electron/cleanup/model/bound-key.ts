import type { KeyStore } from './key-store.js';

/**
 * The model's API key is stored together with the base URL it was entered for, and is only ever
 * sent there: changing the URL without entering the key again drops the key, so a changed (or
 * tampered) model.json cannot make the app send the key to another host. A key stored by an older
 * version (plain text) is taken as bound to the URL configured when it is first read.
 */
interface Bound {
  v: 1;
  baseUrl: string | null;
  key: string;
}

function decode(text: string): { baseUrl: string | null; key: string; legacy: boolean } {
  try {
    const parsed = JSON.parse(text) as Partial<Bound>;
    if (parsed && parsed.v === 1 && typeof parsed.key === 'string')
      return { baseUrl: parsed.baseUrl ?? null, key: parsed.key, legacy: false };
  } catch {
    // not JSON: a key stored as plain text
  }
  return { baseUrl: null, key: text, legacy: true };
}

export class BoundKeyStore {
  constructor(private readonly store: KeyStore) {}

  /** The key for `baseUrl`, or null when none was stored for that URL. */
  async keyFor(baseUrl: string | null): Promise<string | null> {
    const text = await this.store.get();
    if (text === null) return null;
    const bound = decode(text);
    if (bound.legacy) {
      await this.set(baseUrl, bound.key);
      return bound.key;
    }
    return bound.baseUrl === baseUrl ? bound.key : null;
  }

  async set(baseUrl: string | null, key: string | null): Promise<void> {
    await this.store.set(key === null ? null : JSON.stringify({ v: 1, baseUrl, key } satisfies Bound));
  }

  /** Keeps the stored key only if it was entered for `baseUrl`. */
  async keepOnlyFor(baseUrl: string | null): Promise<void> {
    const text = await this.store.get();
    if (text === null) return;
    const bound = decode(text);
    if (!bound.legacy && bound.baseUrl !== baseUrl) await this.store.set(null);
  }
}
