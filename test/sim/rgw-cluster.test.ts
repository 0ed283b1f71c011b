import { afterAll, beforeAll, expect, it } from 'vitest';
import { rgwBucket } from '../server/rgw.js';
import { runSeeds, summarize } from './run-seeds.js';

/**
 * Issue 16: the simulation (every fault, the exact oracle) against three sync-server instances
 * over one Ceph RGW bucket — the real S3 implementation — each request to an instance at random.
 * Fewer seeds than over the filesystem store (test/sim/simulation.test.ts): every request is a few
 * S3 calls. SIM_RGW_SEEDS runs more.
 */
let bucket: Awaited<ReturnType<typeof rgwBucket>>;
beforeAll(async () => {
  bucket = await rgwBucket();
}, 60_000);
afterAll(async () => {
  await bucket?.cleanup();
}, 60_000);

const count = Number(process.env.SIM_RGW_SEEDS ?? 6);

it(
  `sync simulation over one RGW bucket: ${count} seeds converge with the bucket, lose no edit`,
  { timeout: 600_000 },
  async () => {
    const results = await runSeeds(900_001, count, {
      concurrency: 2,
      storage: { kind: 's3', ...bucket.options },
    });
    expect(results).toHaveLength(count);
    console.log(`RGW: ${summarize(results)}`);
  },
);
