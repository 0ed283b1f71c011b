import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { S3Storage, type S3StorageOptions } from '../../server/storage/s3-storage.js';

/**
 * The Ceph RGW that `scripts/rgw.sh start` runs on loopback (the real S3 implementation the S3
 * adapter is verified against). Tests that need it fail — never skip — when it is not running, with
 * the command that starts it; `.ci/run` starts it before `npm test`, and otherwise vitest's global
 * setup (test/support/rgw-global-setup.ts) starts it for the run and stops it afterwards.
 */
export interface RgwTarget {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export function rgwStateFile(): string {
  return path.join(process.env.MEMDESK_RGW_DIR ?? path.join(os.tmpdir(), 'memdesk-rgw'), 'rgw.json');
}

export async function rgwTarget(): Promise<RgwTarget> {
  const file = rgwStateFile();
  const how =
    'The RGW storage tests need it: run `scripts/rgw.sh start` (installs Ceph with apt when missing, ' +
    'as root; ≈ 7 s), then the tests again; `scripts/rgw.sh stop` stops it. CI (.ci/run) does this itself.';
  if (!existsSync(file)) throw new Error(`Ceph RGW is not running (no ${file}). ${how}`);
  const target = JSON.parse(readFileSync(file, 'utf8')) as RgwTarget;
  const answer = await fetch(`${target.endpoint}/`).catch((err: unknown) => err as Error);
  if (answer instanceof Error || answer.status !== 200) {
    throw new Error(`Ceph RGW at ${target.endpoint} (from ${file}) does not answer. ${how}`);
  }
  return target;
}

function client(target: RgwTarget): S3Client {
  return new S3Client({
    region: target.region,
    endpoint: target.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: target.accessKeyId, secretAccessKey: target.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** A fresh bucket on the RGW; `cleanup` empties and removes it. */
export async function rgwBucket(): Promise<{
  options: S3StorageOptions;
  make: () => S3Storage;
  cleanup: () => Promise<void>;
}> {
  const target = await rgwTarget();
  const bucket = `memdesk-${randomBytes(6).toString('hex')}`;
  const admin = client(target);
  await admin.send(new CreateBucketCommand({ Bucket: bucket }));
  const options: S3StorageOptions = { bucket, forcePathStyle: true, ...target };
  return {
    options,
    make: () => new S3Storage(options),
    cleanup: async () => {
      for (;;) {
        const listed = await admin.send(new ListObjectsV2Command({ Bucket: bucket }));
        const keys = (listed.Contents ?? []).flatMap((item) => (item.Key ? [{ Key: item.Key }] : []));
        if (keys.length === 0) break;
        await admin.send(
          new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } }),
        );
      }
      await admin.send(new DeleteBucketCommand({ Bucket: bucket }));
      admin.destroy();
    },
  };
}
