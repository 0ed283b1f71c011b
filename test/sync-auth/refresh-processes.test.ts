import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, expect, it } from 'vitest';
import { accessTokenFor } from '../../electron/sync/auth/access-token.js';
import { parseCredential, serializeCredential } from '../../electron/sync/auth/oidc-credential.js';
import { signInWithBrowser } from '../../electron/sync/auth/oidc-sign-in.js';
import { FileTokenStore } from '../../electron/sync/token-store.js';
import type { RunningSyncServer } from '../../server/app.js';
import { signInAt } from './browser-sign-in.js';
import { PASSWORD, useSignInScene } from './sign-in-scene.js';

/**
 * Two processes share one CLI token file (the MCP server and a hook, say) and both find the access
 * token expired at once. Refresh tokens rotate and the built-in provider treats a reused one as
 * stolen, so without a lock across processes the second refresh fails and signs the device out.
 * With it, one process renews and the other, once it holds the lock, reads the renewed token.
 */
const execFileAsync = promisify(execFile);
const scene = useSignInScene('refresh-processes');
let server: RunningSyncServer;

beforeAll(async () => {
  server = await scene.builtIn('server', ['carol']);
}, 60_000);

function child(file: string, ready: string, go: string): Promise<{ token?: string; error?: string }> {
  const script = path.join(import.meta.dirname, 'refresh-child.ts');
  return execFileAsync(process.execPath, ['--import', 'tsx', script, file, server.url, ready, go], {
    timeout: 120_000,
  }).then(({ stdout }) => JSON.parse(stdout) as { token?: string; error?: string });
}

it(
  'two processes renewing one token file at once: one refresh, both get the renewed token',
  { timeout: 240_000 },
  async () => {
    const credential = await signInWithBrowser({
      origin: server.url,
      deviceName: 'Shared laptop',
      openBrowser: signInAt(scene.browser, 'carol', PASSWORD),
    });
    const file = path.join(scene.root, 'credentials', 'sync-token.json');
    const store = new FileTokenStore(file);
    // Expired as far as both processes can tell.
    await store.set(server.url, serializeCredential({ ...credential, expiresAt: 0 }));
    const go = path.join(scene.root, 'go');
    const ready = [path.join(scene.root, 'ready-a'), path.join(scene.root, 'ready-b')];
    const both = Promise.all(ready.map((r) => child(file, r, go)));
    // Both loaded (tsx takes seconds here), then both ask at once.
    while (!(await Promise.all(ready.map((r) => fs.stat(r).catch(() => null)))).every(Boolean))
      await new Promise((r) => setTimeout(r, 10));
    await fs.writeFile(go, '');
    const [a, b] = (await both) as [{ token?: string; error?: string }, { token?: string; error?: string }];
    expect(a.error ?? b.error).toBeUndefined();
    expect(a.token).toBe(b.token);
    const renewed = parseCredential((await store.get(server.url))!)!;
    expect(renewed.accessToken).toBe(a.token);
    expect(renewed.refreshToken).not.toBe(credential.refreshToken);
    // The device is still signed in: its renewed refresh token renews again.
    await store.set(server.url, serializeCredential({ ...renewed, expiresAt: 0 }));
    const again = await accessTokenFor(store, server.url);
    expect(again).not.toBe(a.token);
  },
);
