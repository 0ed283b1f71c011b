import { promises as fs } from 'node:fs';
import { contentHash } from '../../shared/content-hash.js';
import { serializeNote } from '../../shared/note-format.js';
import type { NoteType } from '../../shared/note.js';
import {
  type CommitRequest,
  type SnapshotRequest,
  SYNC_PROTOCOL_HEADER,
  SYNC_PROTOCOL_VERSION,
  SYNC_ROUTES,
} from '../../shared/sync-protocol.js';
import { startSyncServer, type RunningSyncServer, type SyncServerOptions } from '../../server/app.js';
import { FsStorage } from '../../server/storage/fs-storage.js';
import { S3Storage } from '../../server/storage/s3-storage.js';
import type { StorageAdapter } from '../../server/storage/storage.js';
import { signUserToken } from '../../server/token.js';
import { startS3LoopbackServer, type S3LoopbackServer } from '../support/s3-loopback-server.js';
import { rgwBucket } from './rgw.js';
import { tempDir } from '../support/temp-dir.js';

export const SECRET = 'test-secret-for-sync-server-tests';
export const ADMIN_KEY = 'test-admin-key';
export const T0 = Date.UTC(2026, 10, 1);

export function makeNote(
  id: string,
  body: string,
  options: { summary?: string; type?: NoteType; tags?: string[] } = {},
): { content: string; hash: string } {
  const note = {
    id,
    summary: options.summary ?? `Summary of ${id}`,
    ...(options.type ? { type: options.type } : {}),
    tags: options.tags ?? [],
    createdAt: T0,
    updatedAt: T0,
    body,
  };
  return { content: serializeNote(note), hash: contentHash(note) };
}

export function put(
  id: string,
  body: string,
  baseHash: string | null = null,
  options: { type?: NoteType } = {},
) {
  const note = makeNote(id, body, options);
  return { id, baseHash, hash: note.hash, content: note.content };
}

export { tempDir };

/** A settable clock. */
export function testClock(start = T0): {
  now: () => number;
  set: (t: number) => void;
  advance: (ms: number) => void;
} {
  let t = start;
  return { now: () => t, set: (v) => void (t = v), advance: (ms) => void (t += ms) };
}

/** 's3' is the loopback S3 stand-in (fast); 'rgw' is Ceph RGW started by scripts/rgw.sh. */
export type AdapterKind = 'fs' | 's3' | 'rgw';

/** Real storage for a test: a temp dir, the loopback S3 server or Ceph RGW, with the real AWS SDK. */
export async function makeStorage(kind: AdapterKind): Promise<{
  storage: StorageAdapter;
  make: () => StorageAdapter;
  s3?: S3LoopbackServer;
  dir?: string;
  cleanup: () => Promise<void>;
}> {
  if (kind === 'fs') {
    const dir = await tempDir();
    return {
      storage: new FsStorage(dir),
      make: () => new FsStorage(dir),
      dir,
      cleanup: () => fs.rm(dir, { recursive: true, force: true }),
    };
  }
  if (kind === 'rgw') {
    const rgw = await rgwBucket();
    return { storage: rgw.make(), make: rgw.make, cleanup: rgw.cleanup };
  }
  const s3 = await startS3LoopbackServer();
  const make = (): StorageAdapter =>
    new S3Storage({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      accessKeyId: 'test',
      secretAccessKey: 'test',
    });
  return { storage: make(), make, s3, cleanup: () => s3.close() };
}

export async function startTestServer(
  options: Partial<SyncServerOptions> & { storage: SyncServerOptions['storage'] },
): Promise<RunningSyncServer> {
  return startSyncServer({ jwtSecret: SECRET, adminKey: ADMIN_KEY, rateLimit: null, ...options });
}

export async function tokenFor(
  user: string,
  options: {
    plan?: string;
    teams?: { id?: string; plan?: string }[];
    now?: number;
    ttlSeconds?: number;
    secret?: string;
  } = {},
): Promise<string> {
  return signUserToken({
    secret: options.secret ?? SECRET,
    user,
    ...(options.plan ? { plan: options.plan } : {}),
    ...(options.teams ? { teams: options.teams } : {}),
    now: options.now ?? T0,
    ttlSeconds: options.ttlSeconds ?? 30 * 24 * 3600, // the command-line server's longest
  });
}

export interface Reply {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A client speaking the protocol over real HTTP. */
export class TestClient {
  constructor(
    readonly url: string,
    public token: string | null,
    public protocol: number | null = SYNC_PROTOCOL_VERSION,
  ) {}

  async request(
    method: string,
    route: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = { ...extraHeaders };
    if (this.token !== null) headers.authorization = `Bearer ${this.token}`;
    if (this.protocol !== null) headers[SYNC_PROTOCOL_HEADER] = String(this.protocol);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(this.url + route, {
      method,
      headers,
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  }

  identity(): Promise<Reply> {
    return this.request('GET', SYNC_ROUTES.identity);
  }
  snapshot(request: SnapshotRequest): Promise<Reply> {
    return this.request('POST', SYNC_ROUTES.snapshot, request);
  }
  commit(request: CommitRequest): Promise<Reply> {
    return this.request('POST', SYNC_ROUTES.commit, request);
  }
}

export const PROJECT = { kind: 'project' as const, projectId: 'proj-1' };
export const USER_SCOPE = { kind: 'user' as const };
