import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startSyncServer, type RunningSyncServer, type SyncServerOptions } from '../../server/app.js';
import { AccountStore } from '../../server/oidc/accounts.js';
import type { SignInOptions } from '../../server/oidc/sign-in.js';
import { FsStorage } from '../../server/storage/fs-storage.js';
import { launchChromium } from '../e2e/harness.js';
import { tempDir } from '../support/temp-dir.js';

/** Every account of a sign-in scene has this password. */
export const PASSWORD = 'correct horse battery staple';

/** What a built-in provider may be given beyond its accounts: token lifetimes, the server's clock. */
export type BuiltInOptions = Omit<Extract<SignInOptions, { provider: 'built-in' }>, 'provider'> &
  Pick<SyncServerOptions, 'now'>;

export interface SignInScene {
  /** This file's temp directory (set before the first test). */
  root: string;
  /** Chromium, where the person signs in (set before the first test). */
  browser: Browser;
  /**
   * A sync server with its built-in OpenID Connect provider on loopback, over an FsStorage in
   * `root/dir`, holding these accounts (password PASSWORD).
   */
  builtIn(dir: string, accounts: readonly string[], options?: BuiltInOptions): Promise<RunningSyncServer>;
  /**
   * A sync server over an FsStorage in `root/dir` that accepts the tokens of `issuer` (an
   * external provider to it): by default for the issuer's own audience, which it names as the
   * RFC 8707 resource to ask for; given another `audience`, a server those tokens are not for.
   */
  external(dir: string, issuer: string, audience?: string): Promise<RunningSyncServer>;
}

/**
 * The sign-in tests' scene: a temp directory, Chromium, and the sync servers the file starts, all
 * closed and removed after the file's tests.
 */
export function useSignInScene(name: string): SignInScene {
  const servers: RunningSyncServer[] = [];
  const start = async (
    dir: string,
    options: Omit<SyncServerOptions, 'storage'>,
    accounts: readonly string[],
  ) => {
    const storage = new FsStorage(path.join(scene.root, dir));
    for (const account of accounts) await new AccountStore(storage).add(account, PASSWORD);
    const server = await startSyncServer({ storage, rateLimit: null, ...options });
    servers.push(server);
    return server;
  };
  const scene: SignInScene = {
    root: '',
    browser: undefined as unknown as Browser,
    builtIn: (dir, accounts, { now, ...provider } = {}) =>
      start(dir, { signIn: { provider: 'built-in', ...provider }, ...(now ? { now } : {}) }, accounts),
    external: (dir, issuer, audience) => {
      const own = `${issuer}/v1/memory`;
      const signIn: SignInOptions = audience
        ? { provider: 'external', issuer, audience, clientId: 'memory-desk' }
        : { provider: 'external', issuer, audience: own, clientId: 'memory-desk', resource: own };
      return start(dir, { signIn }, []);
    },
  };
  beforeAll(async () => {
    scene.root = await tempDir(name);
    scene.browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await scene.browser?.close();
    for (const s of servers) await s.close();
    if (scene.root) await fs.rm(scene.root, { recursive: true, force: true });
  });
  return scene;
}
