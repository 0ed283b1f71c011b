import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { PreconditionFailedError, StorageUnavailableError, UNCHANGED } from './storage.js';
import type { ObjectBody, PutCondition, StoredObject } from './storage.js';
import { StorageBase, unquotedEtag } from './storage-base.js';

/**
 * S3-compatible object storage (AWS S3, Cloudflare R2, Ceph RGW, MinIO) through @aws-sdk/client-s3.
 * Manifest compare-and-swap uses conditional PutObject (`If-Match` / `If-None-Match: *`). What the
 * stores disagree on is handled here, not by callers (docs/self-hosting.md, "Supported stores"):
 * - ETags are kept and sent without quotes: RGW 16 compares `If-Match` literally against the
 *   unquoted value (a quoted one is always 412); AWS S3 and R2 accept either form.
 * - The condition did not hold: 412, S3's 409 ConditionalRequestConflict (a race in flight), and on
 *   a missing key either 404 NoSuchKey (S3, R2) or 412 (RGW).
 * - A 5xx or a broken connection on a conditional PUT leaves the outcome unknown (RGW answers some
 *   losers of a race `500 UnknownError`): the key is re-read and the write counts as done only if
 *   it holds exactly our bytes; if it still holds the version we named, the PUT is tried again;
 *   anything else is a lost race. Conditional PUTs are therefore never retried blindly by the SDK.
 * - Checksums only when an operation requires them (`WHEN_REQUIRED`), which every store accepts.
 */
export interface S3StorageOptions {
  bucket: string;
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Path-style addressing (`endpoint/bucket/key`), needed by MinIO and loopback test servers. */
  forcePathStyle?: boolean;
  /** Prepended to every key, e.g. `memory-sync/`. */
  prefix?: string;
}

/** How often a conditional PUT whose outcome was unknown, and that did not land, is sent again. */
const UNKNOWN_OUTCOME_ATTEMPTS = 3;

export class S3Storage extends StorageBase {
  readonly kind = 's3';
  /** For reads, lists, deletes and unconditional writes: the SDK may retry them. */
  private readonly client: S3Client;
  /** For conditional writes: one attempt each, the outcome of a failure is decided here. */
  private readonly casClient: S3Client;
  private readonly prefix: string;

  constructor(private readonly options: S3StorageOptions) {
    super();
    this.prefix = options.prefix ?? '';
    const config = {
      region: options.region ?? 'auto',
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.forcePathStyle ?? false,
      ...(options.accessKeyId && options.secretAccessKey
        ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
        : {}),
      // RGW answers 411 to streamed bodies with the SDK's default checksums, R2 and MinIO reject
      // some of them: only send checksums when an operation requires them.
      requestChecksumCalculation: 'WHEN_REQUIRED' as const,
      responseChecksumValidation: 'WHEN_REQUIRED' as const,
    };
    this.client = new S3Client({ ...config, maxAttempts: 3 });
    this.casClient = new S3Client({ ...config, maxAttempts: 1 });
  }

  describe(): string {
    return `S3 bucket ${this.options.bucket}${this.options.endpoint ? ` at ${this.options.endpoint}` : ''}${this.prefix ? ` under ${this.prefix}` : ''}`;
  }

  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.options.bucket }));
    } catch (err) {
      throw new StorageUnavailableError(
        `the S3 bucket ${this.options.bucket} cannot be reached: ${describeError(err)}`,
      );
    }
  }

  protected failureMessage(err: unknown): string {
    return `S3 storage failed: ${describeError(err)}`;
  }

  /** The bucket's key for a checked key (StorageBase checks every key). */
  private fullKey(key: string): string {
    return this.prefix + key;
  }

  protected async read(key: string): Promise<StoredObject | null> {
    const got = await this.readUnless(key, undefined);
    return got === UNCHANGED ? null : got;
  }

  protected readIfChanged(key: string, etag: string): Promise<StoredObject | null | typeof UNCHANGED> {
    return this.readUnless(key, etag);
  }

  private async readUnless(
    key: string,
    unlessEtag: string | undefined,
  ): Promise<StoredObject | null | typeof UNCHANGED> {
    try {
      const out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.options.bucket,
          Key: this.fullKey(key),
          ...(unlessEtag !== undefined ? { IfNoneMatch: `"${unlessEtag}"` } : {}),
        }),
      );
      const bytes = out.Body ? await out.Body.transformToByteArray() : new Uint8Array();
      return { body: Buffer.from(bytes), etag: unquotedEtag(out.ETag ?? '') };
    } catch (err) {
      const status = statusOf(err);
      if (status === 404) return null;
      if (status === 304 && unlessEtag !== undefined) return UNCHANGED;
      throw err;
    }
  }

  protected async write(key: string, body: ObjectBody, condition: PutCondition): Promise<{ etag: string }> {
    const data = Buffer.isBuffer(body)
      ? body
      : Buffer.from(typeof body === 'string' ? body : body.join(''), 'utf8');
    const conditional = condition.ifMatch !== undefined || condition.ifNoneMatch !== undefined;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.send(key, data, condition, conditional);
      } catch (err) {
        if (!conditional) throw err;
        const status = statusOf(err);
        if (status === 412 || status === 409) throw new PreconditionFailedError(key);
        if (status === 404 && condition.ifMatch !== undefined) throw new PreconditionFailedError(key);
        if (status !== undefined && status < 500) throw err;
        // 5xx or no answer: did our write land?
        const now = await this.read(key).catch((readErr: unknown) => {
          throw new StorageUnavailableError(
            `S3 storage failed on a conditional write of ${key} and could not be re-read to learn its outcome (${describeError(err)}; then ${describeError(readErr)})`,
          );
        });
        if (now !== null && now.body.equals(data)) return { etag: now.etag };
        const stillBase =
          condition.ifMatch !== undefined ? now !== null && now.etag === condition.ifMatch : now === null;
        if (!stillBase) throw new PreconditionFailedError(key);
        if (attempt >= UNKNOWN_OUTCOME_ATTEMPTS) throw err;
      }
    }
  }

  private async send(
    key: string,
    data: Buffer,
    condition: PutCondition,
    conditional: boolean,
  ): Promise<{ etag: string }> {
    const out = await (conditional ? this.casClient : this.client).send(
      new PutObjectCommand({
        Bucket: this.options.bucket,
        Key: this.fullKey(key),
        Body: data,
        ContentLength: data.length,
        ContentType: key.endsWith('.json') ? 'application/json' : 'text/markdown; charset=utf-8',
        ...(condition.ifMatch !== undefined ? { IfMatch: condition.ifMatch } : {}),
        ...(condition.ifNoneMatch !== undefined ? { IfNoneMatch: condition.ifNoneMatch } : {}),
      }),
    );
    return { etag: unquotedEtag(out.ETag ?? '') };
  }

  protected async remove(key: string): Promise<void> {
    try {
      await this.client.send(
        new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.fullKey(key) }),
      );
    } catch (err) {
      if (statusOf(err) === 404) return;
      throw err;
    }
  }

  protected async keysUnder(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const out = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.options.bucket,
          Prefix: this.prefix + prefix,
          ContinuationToken: token,
        }),
      );
      for (const item of out.Contents ?? []) {
        if (item.Key) keys.push(item.Key.slice(this.prefix.length));
      }
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }

  protected async removeAll(_prefix: string, keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.options.bucket,
          Delete: { Objects: batch.map((key) => ({ Key: this.fullKey(key) })), Quiet: true },
        }),
      );
    }
  }
}

function statusOf(err: unknown): number | undefined {
  if (err instanceof S3ServiceException) return err.$metadata.httpStatusCode;
  const meta = (err as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata;
  return meta?.httpStatusCode;
}

function describeError(err: unknown): string {
  const status = statusOf(err);
  const name = (err as Error)?.name ?? 'Error';
  const message = (err as Error)?.message ?? String(err);
  return `${name}${status ? ` (HTTP ${status})` : ''}: ${message}`;
}

/** S3 settings from the environment; null (with the reason) when the bucket is not configured. */
export function s3OptionsFromEnv(
  env: NodeJS.ProcessEnv,
): { options: S3StorageOptions } | { problem: string } {
  const bucket = env.OHARNESS_SYNC_S3_BUCKET;
  if (!bucket) return { problem: 'S3 storage was chosen but OHARNESS_SYNC_S3_BUCKET is not set' };
  const accessKeyId = env.OHARNESS_SYNC_S3_ACCESS_KEY_ID ?? env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.OHARNESS_SYNC_S3_SECRET_ACCESS_KEY ?? env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) {
    return {
      problem:
        'S3 storage was chosen but no credentials are set (OHARNESS_SYNC_S3_ACCESS_KEY_ID / _SECRET_ACCESS_KEY)',
    };
  }
  return {
    options: {
      bucket,
      accessKeyId,
      secretAccessKey,
      ...(env.OHARNESS_SYNC_S3_ENDPOINT ? { endpoint: env.OHARNESS_SYNC_S3_ENDPOINT } : {}),
      region: env.OHARNESS_SYNC_S3_REGION ?? env.AWS_REGION ?? 'auto',
      forcePathStyle:
        env.OHARNESS_SYNC_S3_FORCE_PATH_STYLE === '1' || env.OHARNESS_SYNC_S3_FORCE_PATH_STYLE === 'true',
      ...(env.OHARNESS_SYNC_S3_PREFIX ? { prefix: env.OHARNESS_SYNC_S3_PREFIX } : {}),
    },
  };
}
