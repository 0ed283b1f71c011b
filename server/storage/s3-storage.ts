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
import {
  PreconditionFailedError,
  StorageUnavailableError,
  keyProblem,
  type PutCondition,
  type StorageAdapter,
  type StoredObject,
} from './storage.js';

/**
 * S3-compatible object storage (Cloudflare R2, AWS S3, MinIO) through @aws-sdk/client-s3. Manifest
 * compare-and-swap uses conditional PutObject (`If-Match` / `If-None-Match: *`), which all three
 * honour; a 412 (or S3's 409 ConditionalRequestConflict for a race in flight) means the condition
 * did not hold.
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

export class S3Storage implements StorageAdapter {
  readonly kind = 's3';
  private readonly client: S3Client;
  private readonly prefix: string;

  constructor(private readonly options: S3StorageOptions) {
    this.prefix = options.prefix ?? '';
    this.client = new S3Client({
      region: options.region ?? 'auto',
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.forcePathStyle ?? false,
      ...(options.accessKeyId && options.secretAccessKey
        ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
        : {}),
      // R2 and MinIO reject some of the SDK's newer default checksums; only send them when required.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
    });
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

  private fullKey(key: string): string {
    const problem = keyProblem(key);
    if (problem) throw new Error(problem);
    return this.prefix + key;
  }

  async get(key: string): Promise<StoredObject | null> {
    try {
      const out = await this.client.send(
        new GetObjectCommand({ Bucket: this.options.bucket, Key: this.fullKey(key) }),
      );
      const bytes = out.Body ? await out.Body.transformToByteArray() : new Uint8Array();
      return { body: Buffer.from(bytes), etag: out.ETag ?? '' };
    } catch (err) {
      if (statusOf(err) === 404) return null;
      throw wrap(err);
    }
  }

  async put(key: string, body: Buffer | string, condition: PutCondition = {}): Promise<{ etag: string }> {
    const data = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    try {
      const out = await this.client.send(
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
      return { etag: out.ETag ?? '' };
    } catch (err) {
      const status = statusOf(err);
      if (
        status === 412 ||
        (status === 409 && (condition.ifMatch !== undefined || condition.ifNoneMatch !== undefined))
      ) {
        throw new PreconditionFailedError(key);
      }
      // If-Match on a missing object: S3 answers 404 NoSuchKey; that is a failed condition too.
      if (status === 404 && condition.ifMatch !== undefined) throw new PreconditionFailedError(key);
      throw wrap(err);
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await this.client.send(
        new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.fullKey(key) }),
      );
    } catch (err) {
      if (statusOf(err) === 404) return;
      throw wrap(err);
    }
  }

  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    try {
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
    } catch (err) {
      throw wrap(err);
    }
    return keys;
  }

  async deletePrefix(prefix: string): Promise<number> {
    const keys = await this.list(prefix);
    try {
      for (let i = 0; i < keys.length; i += 1000) {
        const batch = keys.slice(i, i + 1000);
        await this.client.send(
          new DeleteObjectsCommand({
            Bucket: this.options.bucket,
            Delete: { Objects: batch.map((key) => ({ Key: this.prefix + key })), Quiet: true },
          }),
        );
      }
    } catch (err) {
      throw wrap(err);
    }
    return keys.length;
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

function wrap(err: unknown): Error {
  if (err instanceof PreconditionFailedError || err instanceof StorageUnavailableError) return err;
  return new StorageUnavailableError(`S3 storage failed: ${describeError(err)}`);
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
