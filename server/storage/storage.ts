/**
 * What the sync server needs from object storage: whole-object get/put/delete/list, with ETags and
 * conditional writes. The filesystem and S3 adapters both implement it, and one conformance suite
 * (test/server/storage-conformance.test.ts) holds them to the same behaviour.
 */
export interface StoredObject {
  body: Buffer;
  /** Opaque, without quotes; changes whenever the object's content is replaced. */
  etag: string;
}

/** A conditional write: `ifMatch` (replace only this version) or `ifNoneMatch: '*'` (create only). */
export interface PutCondition {
  ifMatch?: string;
  ifNoneMatch?: '*';
}

/** What `getIfChanged` answers when the key still holds the version named. */
export const UNCHANGED = Symbol('unchanged');

export interface StorageAdapter {
  /** 'fs', 's3', or 'unavailable' (misconfigured: every call throws StorageUnavailableError). */
  readonly kind: string;
  /** A line for the startup log (no secrets). */
  describe(): string;
  /** Throws StorageUnavailableError when storage cannot be used. */
  check(): Promise<void>;
  get(key: string): Promise<StoredObject | null>;
  /**
   * `get`, unless `key` still holds the version `etag` names: then UNCHANGED, without the body.
   * Cheaper than `get` (S3: a conditional GET answered 304; filesystem: one stat), and exact —
   * a process that cached an object validates it with this on every use.
   */
  getIfChanged(key: string, etag: string): Promise<StoredObject | null | typeof UNCHANGED>;
  /** Throws PreconditionFailedError when `condition` does not hold; returns the new ETag. */
  put(key: string, body: Buffer | string, condition?: PutCondition): Promise<{ etag: string }>;
  /** Deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Every key starting with `prefix`, in no particular order. */
  list(prefix: string): Promise<string[]>;
  /** Deletes every key starting with `prefix`; returns how many were removed. */
  deletePrefix(prefix: string): Promise<number>;
}

export class PreconditionFailedError extends Error {
  constructor(key: string) {
    super(`the condition on ${key} did not hold`);
    this.name = 'PreconditionFailedError';
  }
}

export class StorageUnavailableError extends Error {
  /**
   * @param message for the server's log: may name directories, buckets and keys.
   * @param publicReason for callers, when there is one without any storage path (a setting missing).
   */
  constructor(
    message: string,
    readonly publicReason?: string,
  ) {
    super(message);
    this.name = 'StorageUnavailableError';
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

/**
 * What an adapter throws for a failure: the contract's own errors as they are, anything else as
 * StorageUnavailableError with the adapter's `message` for it.
 */
export function storageFailure(err: unknown, message: (err: unknown) => string): Error {
  if (err instanceof PreconditionFailedError || err instanceof StorageUnavailableError) return err;
  return new StorageUnavailableError(message(err));
}

/** The canonical form of an ETag for every adapter: no weak marker, no quotes (S3 sends them quoted). */
export function unquotedEtag(etag: string): string {
  return etag.replace(/^W\//, '').replace(/"/g, '');
}
