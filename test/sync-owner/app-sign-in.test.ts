import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncStatusSchema } from '../../shared/api/sync.js';
import { createAppRoot } from '../../electron/app/app-root.js';
import { appSignIn } from '../../electron/sync/owner/app-sign-in.js';
import { ownerPaths } from '../../electron/sync/owner/paths.js';
import { syncPaths } from '../../electron/sync/sync-paths.js';
import { MemoryTokenStore } from '../../electron/sync/token-store.js';
import { cli } from '../sync/cli-runner.js';
import { startTestServer, type TestServer } from '../sync/harness.js';
import { eventually } from './children.js';
import { device, startMcp, type McpProcess, type TestDevice } from './device.js';

/**
 * A home signed in only in the desktop app (its sign-in in the keychain, here an in-memory token
 * store; no CLI token file): agents' processes cannot sync, and say so — `memdesk status`, a
 * `memdesk sync` answered by an MCP owner, and the MCP server's log name the reason and the way
 * out (`memdesk login`). The app's marker holds the origin only, never a token.
 */
let server: TestServer;
let a: TestDevice;
let token: string;
const running: McpProcess[] = [];

beforeAll(async () => {
  server = await startTestServer();
  token = await server.token('app-only-user');
  a = await device('app-only', ['proj-p'], server.url, token);
  // Signed in in the app only: the CLI's token file goes, cloud.json (the origin) stays.
  await fs.rm(syncPaths(a.home).tokenFile);
}, 300_000);

afterAll(async () => {
  for (const m of running) await m.close().catch(() => undefined);
  await server?.close();
});

async function status(): Promise<ReturnType<typeof SyncStatusSchema.parse>> {
  const run = await cli([...a.args('proj-p'), '--json', 'status'], a.roots['proj-p']!);
  expect(run.code, run.stderr).toBe(0);
  return SyncStatusSchema.parse(JSON.parse(run.stdout));
}

describe('a home signed in only in the desktop app', { timeout: 600_000 }, () => {
  it('agents see why their notes wait and what to do; the app marks its sign-in without any secret', async () => {
    // Before the app ran: plainly signed out, nothing waits for the app.
    expect((await status()).waiting).toBeNull();

    const app = createAppRoot({
      home: a.home,
      env: {},
      sync: { autoStart: true, tokens: new MemoryTokenStore(), owner: { role: 'app', heartbeatMs: 200 } },
      syncOnOpen: true,
    });
    const project = await app.open({ projectRoot: a.roots['proj-p']!, watch: true });
    try {
      const { origin } = await (await app.sync()).engine.login(server.url, token);
      await eventually(() => appSignIn(a.home) === origin || null, 'the app marks its sign-in');
      const marker = await fs.readFile(path.join(ownerPaths(a.home).dir, 'app-signed-in.json'), 'utf8');
      expect(JSON.parse(marker)).toEqual({ origin });
      expect(marker).not.toContain(token);

      const waiting = (await status()).waiting;
      expect(waiting?.reason).toBe('app_sign_in');
      expect(waiting?.message).toContain(`memdesk login --origin ${origin}`);
      const text = await cli([...a.args('proj-p'), 'status'], a.roots['proj-p']!);
      expect(text.stdout).toMatch(
        /^waiting: signed in to \S+ in the desktop app only: .* sync when the desktop app next runs/m,
      );

      // Signed out in the app: the marker goes, nothing is said to wait for it.
      await (await app.sync()).engine.logout();
      await eventually(() => appSignIn(a.home) === null || null, 'the marker goes with the sign-out');
      expect((await status()).waiting).toBeNull();
      await (await app.sync()).engine.login(server.url, token);
      await eventually(() => appSignIn(a.home) === origin || null, 'signed in again');
    } finally {
      await project.close();
      await app.stop();
    }
    // The app is closed; its sign-in (in the keychain) stays, and so does the marker.
    expect(existsSync(ownerPaths(a.home).lockFile)).toBe(false);

    const mcp = await startMcp(a, 'proj-p', { OHARNESS_HOME: a.home });
    running.push(mcp);
    await eventually(() => a.ownerPid() === mcp.pid || null, 'the MCP server owns sync');
    await eventually(
      () => /cloud sync waits: signed in to \S+ in the desktop app only/.test(mcp.stderr()) || null,
      'the MCP server logs why sync waits',
    );
    // 立即同步 asked of it: the round cannot run, and the answer says why.
    const run = await cli([...a.args('proj-p'), 'sync'], a.roots['proj-p']!);
    expect(run.stdout).toMatch(/error \(signed_out\): signed in to \S+ in the desktop app only/);
  });
});
