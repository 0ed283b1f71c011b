import { afterAll, beforeAll } from 'vitest';
import {
  startSyncServer,
  signUserToken,
  type RunningSyncServer,
  type SyncServerOptions,
} from '../../server/index.js';
import { createUserMemory, createMemoryCore } from '../../electron/memory/core.js';
import type { MemoryCore, UserMemory, StoredNote } from '../../electron/memory/types.js';
import { SyncEngine, type SyncEngineOptions } from '../../electron/sync/sync-engine.js';
import type { SyncService } from '../../electron/sync/sync-service.js';
import type { RoundResult } from '../../electron/sync/coordinator.js';
import { MemoryTokenStore } from '../../electron/sync/token-store.js';
import { FakeClock } from './fake-clock.js';
import type { Note } from '../../shared/note.js';
import { tempDir } from '../support/temp-dir.js';

export const SECRET = 'test-secret-for-sync-engine-tests-0123456789';

export { tempDir };

export interface TestServer extends RunningSyncServer {
  /** Requests the server saw, one log line each ("POST /v1/memory/commit 200 …"). */
  requests: string[];
  serverNow: { t: number };
  /** The server's storage (kind fs): the history tests wipe it or restore an older copy of it. */
  dataDir: string;
  token(user: string, plan?: string): Promise<string>;
}

export async function startTestServer(opts: Partial<SyncServerOptions> = {}): Promise<TestServer> {
  const dataDir = await tempDir('server');
  const requests: string[] = [];
  const serverNow = { t: 1_800_000_000_000 };
  const server = await startSyncServer({
    host: '127.0.0.1',
    port: 0,
    storage: { kind: 'fs', dir: dataDir },
    jwtSecret: SECRET,
    rateLimit: null,
    now: () => serverNow.t,
    log: (line) => {
      if (/^(GET|POST) \/v1\//.test(line)) requests.push(line);
    },
    ...opts,
  });
  return Object.assign(server, {
    requests,
    serverNow,
    dataDir,
    token: (user: string, plan = 'paid') =>
      signUserToken({ secret: SECRET, user, plan, now: serverNow.t, ttlSeconds: 10 * 365 * 86400 }),
  });
}

/**
 * One real sync server for a test file: started before its tests, closed after them together with
 * the devices the file opened (pushed onto `devices`). `onStart` receives the running server.
 */
export function useTestServer(onStart: (server: TestServer) => void, devices: Device[]): void {
  let server: TestServer | null = null;
  beforeAll(async () => {
    server = await startTestServer();
    onStart(server);
  });
  afterAll(async () => {
    for (const d of devices) await d.close();
    await server?.close();
  });
}

export interface Device {
  name: string;
  home: string;
  clock: FakeClock;
  user: UserMemory;
  engine: SyncEngine;
  svc: SyncService;
  tokens: MemoryTokenStore;
  sync(): Promise<RoundResult>;
  write(id: string, body: string, fields?: Partial<Note>): Promise<StoredNote>;
  remove(id: string): Promise<void>;
  get(id: string): StoredNote | undefined;
  ids(): string[];
  close(): Promise<void>;
}

export async function startDevice(
  name: string,
  server: { url: string } | null,
  opts: { user?: string; token?: string; engine?: Partial<SyncEngineOptions>; home?: string } = {},
): Promise<Device> {
  const home = opts.home ?? (await tempDir(`home-${name}`));
  const clock = new FakeClock();
  const user = await createUserMemory({ home, now: () => clock.now() });
  const tokens = new MemoryTokenStore();
  const engine = new SyncEngine({ home, tokens, clock, ...opts.engine });
  const attached = engine.attachUser(user)!;
  if (server && opts.token) await engine.login(server.url, opts.token);
  const svc = attached.service;
  const store = user.store!;
  return {
    name,
    home,
    clock,
    user,
    engine,
    svc,
    tokens,
    sync: async () => (await engine.syncNow([svc])).get(svc)!,
    write: async (id, body, fields = {}) => {
      const existing = store.get(id);
      return store.write({
        id,
        summary: fields.summary ?? existing?.summary ?? `note ${id}`,
        tags: fields.tags ?? existing?.tags ?? [],
        body,
        createdAt: existing?.createdAt ?? clock.now(),
        updatedAt: clock.now(),
        ...(fields.type ? { type: fields.type } : {}),
      });
    },
    remove: async (id) => {
      await store.delete(id, { backupReason: 'test: deleted by the person' });
    },
    get: (id) => store.get(id),
    ids: () =>
      store
        .list()
        .map((n) => n.id)
        .sort(),
    close: async () => {
      engine.stop();
      await user.close();
    },
  };
}

export async function startProjectDevice(
  name: string,
  server: { url: string },
  token: string,
  projectRoot: string,
  home?: string,
): Promise<{ core: MemoryCore; engine: SyncEngine; clock: FakeClock; home: string }> {
  const h = home ?? (await tempDir(`home-${name}`));
  const clock = new FakeClock();
  const core = await createMemoryCore({ home: h, projectRoot, now: () => clock.now() });
  if (!core.project?.id) await core.registerProject();
  const engine = new SyncEngine({ home: h, tokens: new MemoryTokenStore(), clock });
  await engine.login(server.url, token);
  return { core, engine, clock, home: h };
}

export function expectOk(result: RoundResult): void {
  if (result.outcome !== 'ok') throw new Error(`round ended ${JSON.stringify(result)}`);
}
