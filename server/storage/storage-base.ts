import type { UNCHANGED } from './storage.js';
import {
  PreconditionFailedError,
  StorageUnavailableError,
  type ObjectBody,
  type PutCondition,
  type StorageAdapter,
  type StoredObject,
} from './storage.js';

/**
 * What every adapter does the same around its own storage calls, so that the filesystem and S3
 * adapters hold only what differs: keys are checked before they reach a path or a bucket, bodies
 * arrive as bytes or text, ETags arrive without quotes (the canonical form, `unquotedEtag`), and any failure
 * that is not one of the contract's own errors leaves as StorageUnavailableError with the adapter's
 * account of it.
 */
export abstract class StorageBase implements StorageAdapter {
  abstract readonly kind: string;
  abstract describe(): string;
  abstract check(): Promise<void>;

  /** The log line for a failure of this adapter (no credentials). */
  protected abstract failureMessage(err: unknown): string;
  protected abstract read(key: string): Promise<StoredObject | null>;
  /** `etag` is unquoted. */
  protected abstract readIfChanged(
    key: string,
    etag: string,
  ): Promise<StoredObject | null | typeof UNCHANGED>;
  /**
   * `condition.ifMatch`, when given, is unquoted. Text is written as UTF-8; each adapter encodes it
   * where it knows how long the bytes live.
   */
  protected abstract write(key: string, body: ObjectBody, condition: PutCondition): Promise<{ etag: string }>;
  /** A missing key is not an error. */
  protected abstract remove(key: string): Promise<void>;
  protected abstract keysUnder(prefix: string): Promise<string[]>;
  /** Removes `keys`, the ones `keysUnder(prefix)` found. */
  protected abstract removeAll(prefix: string, keys: string[]): Promise<void>;

  get(key: string): Promise<StoredObject | null> {
    return this.guard(key, () => this.read(key));
  }

  getIfChanged(key: string, etag: string): Promise<StoredObject | null | typeof UNCHANGED> {
    return this.guard(key, () => this.readIfChanged(key, unquotedEtag(etag)));
  }

  put(key: string, body: ObjectBody, condition: PutCondition = {}): Promise<{ etag: string }> {
    const canonical =
      condition.ifMatch === undefined
        ? condition
        : { ...condition, ifMatch: unquotedEtag(condition.ifMatch) };
    return this.guard(key, () => this.write(key, body, canonical));
  }

  delete(key: string): Promise<void> {
    return this.guard(key, () => this.remove(key));
  }

  list(prefix: string): Promise<string[]> {
    return this.guard(null, () => this.keysUnder(prefix));
  }

  async deletePrefix(prefix: string): Promise<number> {
    const keys = await this.list(prefix);
    await this.guard(null, () => this.removeAll(prefix, keys));
    return keys.length;
  }

  /**
   * Runs one storage call on a checked key (none for prefixes), failing as the contract says. A
   * malformed key is the server's own bug, not the storage being away: it fails as a plain error
   * (an internal error to the client), never as "storage unavailable, try again".
   */
  private async guard<T>(key: string | null, call: () => Promise<T>): Promise<T> {
    if (key !== null) checkedKey(key);
    try {
      return await call();
    } catch (err) {
      if (err instanceof PreconditionFailedError || err instanceof StorageUnavailableError) throw err;
      throw new StorageUnavailableError(this.failureMessage(err));
    }
  }
}

/** Keys are `/`-separated; no segment may be empty, `.`, `..`, or hold a backslash or NUL. */
function keyProblem(key: string): string | null {
  if (key.length === 0 || key.length > 1024) return 'a storage key must be 1–1024 characters';
  for (const segment of key.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') return `bad segment in storage key "${key}"`;
    if (/[\\\0]/.test(segment)) return `bad character in storage key "${key}"`;
  }
  return null;
}

/** `key` itself when it is a valid storage key (`keyProblem`); throws the problem otherwise. */
export function checkedKey(key: string): string {
  const problem = keyProblem(key);
  if (problem) throw new Error(problem);
  return key;
}

/** The canonical form of an ETag for every adapter: no weak marker, no quotes (S3 sends them quoted). */
export function unquotedEtag(etag: string): string {
  return etag.replace(/^W\//, '').replace(/"/g, '');
}
