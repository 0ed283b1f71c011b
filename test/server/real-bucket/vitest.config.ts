import { defineConfig } from 'vitest/config';

// Opt-in: `npm run test:s3-real` with OHARNESS_SYNC_S3_BUCKET and credentials set runs the storage
// conformance checks and a sync round against a real bucket (R2, S3, MinIO). The default test run
// never collects this file (it is not named *.test.ts).
export default defineConfig({
  test: {
    include: ['test/server/real-bucket/real-bucket.check.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
