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
  put(key: string, body: ObjectBody, condition?: PutCondition): Promise<{ etag: string }>;
  /** Deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Every key starting with `prefix`, in no particular order. */
  list(prefix: string): Promise<string[]>;
  /** Deletes every key starting with `prefix`; returns how many were removed. */
  deletePrefix(prefix: string): Promise<number>;
}

/**
 * What an object is written from: bytes, or text stored as UTF-8 — whole or in parts written one
 * after another (a large JSON document made in pieces, `manifestJsonParts`).
 */
export type ObjectBody = Buffer | string | readonly string[];

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
