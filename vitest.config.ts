import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    // Ceph RGW for the S3 conformance and multi-instance tests, started here when not already up.
    globalSetup: ['test/support/rgw-global-setup.ts'],
    pool: 'forks',
    // Two files at a time even on a 2-core machine (vitest's default there is one: cores − 1). Most
    // files spend much of their time waiting on child processes, Chromium, servers and the disk, so
    // the second worker fills those waits; every file owns its temp dirs, ephemeral ports and its own
    // RGW bucket, so files never share anything that running side by side could disturb.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
