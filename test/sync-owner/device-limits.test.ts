import { promises as fs } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceLimitsFile } from '../../electron/sync/owner/device-limits.js';
import { ownerPaths } from '../../electron/sync/owner/paths.js';
import { startTestServer, type TestServer } from '../sync/harness.js';
import { CLI_ENTRY, spawnNode } from './children.js';
import { device, rememberOnce, type TestDevice } from './device.js';

/**
 * The device's request budget and 429 pause hold across its processes: one-shot `memdesk
 * remember` runs (real child processes, each its own round before exiting) spend from one
 * window in the home's device-limits file, and a 429 met by one pauses the next — which then
 * sends nothing and leaves its write for the next owner — while `memdesk status` in yet another
 * process shows the pause. The server allows 12 requests an hour per account (a 429 then says
 * Retry-After 300 s), its clock standing still.
 */
let server: TestServer;
let a: TestDevice;

beforeAll(async () => {
  server = await startTestServer({ rateLimit: { requests: 12, windowMs: 3_600_000 } });
  a = await device('limits', ['proj-p'], server.url, await server.token('limits-user'));
}, 300_000);

afterAll(async () => {
  await server?.close();
});

describe('device-wide request budget and 429 pause', { timeout: 600_000 }, () => {
  it('every process spends from one window; a 429 met by one process pauses the next', async () => {
    const limits = new DeviceLimitsFile(ownerPaths(a.home).limitsFile);
    const env = { OHARNESS_HOME: a.home };
    let runs = 0;
    while (limits.read().pausedUntil === null) {
      expect(runs, 'the server never answered 429').toBeLessThan(10);
      const requestsBefore = server.requests.length;
      const latest = Math.max(0, ...limits.read().starts);
      const run = await rememberOnce(a, 'proj-p', `note ${runs}`, `marker-limits-${runs}`, env);
      expect(run.code, run.stderr).toBe(0);
      // Each process's requests joined the same window as the ones before it (on a slow machine
      // the oldest may have left the 60 s window meanwhile: counted are the ones added).
      const added = limits.read().starts.filter((t) => t > latest).length;
      expect(added).toBe(server.requests.length - requestsBefore);
      runs++;
    }
    expect(runs).toBeGreaterThan(1);
    expect(server.requests.some((line) => / 429 /.test(line))).toBe(true);
    const { pausedUntil } = limits.read();

    // The next process sees the pause: no request, its write waits for the next owner.
    const requestsBefore = server.requests.length;
    const paused = await rememberOnce(a, 'proj-p', 'while paused', 'marker-paused', env);
    expect(paused.code, paused.stderr).toBe(0);
    expect(server.requests.slice(requestsBefore)).toEqual([]);
    expect(await fs.readdir(ownerPaths(a.home).requestsDir)).toHaveLength(1);

    // Another process's status shows the device's pause on every scope.
    const status = spawnNode(CLI_ENTRY, [...a.args('proj-p'), '--json', 'status'], env, a.roots['proj-p']!);
    status.child.stdin!.end('');
    expect(await status.exited, status.stderr()).toBe(0);
    const out = JSON.parse(status.stdout()) as { scopes: Array<{ pausedUntil: number | null }> };
    expect(out.scopes.map((s) => s.pausedUntil)).toEqual([pausedUntil, pausedUntil]);
    expect(server.requests.length).toBe(requestsBefore);
  });
});
