import { promises as fs } from 'node:fs';
import path from 'node:path';
import { contentHash } from '../../shared/content-hash.js';
import { parseNote } from '../../shared/note-format.js';
import type { SyncScope } from '../../shared/sync-protocol.js';
import { parseManifest } from '../../server/manifest.js';
import { manifestKey, userSegment } from '../../server/storage-keys.js';
import { readRevisions } from '../../server/revisions.js';
import {
  createStorage,
  startSyncServer,
  type RunningSyncServer,
  type S3StorageOptions,
  type StorageAdapter,
} from '../../server/index.js';
import { ramTempDir } from '../support/temp-dir.js';

/**
 * Sync-server instances over one shared store (issue 16): each instance is a server of its own
 * (its own storage adapter, manifest cache and connections) that shares nothing with the others
 * but the store — the filesystem directory or the S3 bucket. They run in this process (a process
 * each costs ~1 s to start and the simulation restarts instances as a fault); the process-level
 * test is test/server/multi-instance.test.ts. An instance can die and come back (on a new port).
 */
export type ClusterStorage = { kind: 'fs'; dir: string } | ({ kind: 's3' } & S3StorageOptions);

export const SIM_SECRET = 'simulation-secret-0123456789-abcdefghij';

export interface ScopeState {
  /** The manifest's version. */
  version: number;
  /** Active notes: id → the hash the manifest names and the stored revision's content. */
  notes: Map<string, { hash: string; content: string }>;
}

/** A store for the simulation's instances: a fresh directory (on a RAM file system when there is one). */
export async function simFsStore(): Promise<{ storage: ClusterStorage; remove: () => Promise<void> }> {
  const dir = await ramTempDir('sim-server');
  return { storage: { kind: 'fs', dir }, remove: () => fs.rm(dir, { recursive: true, force: true }) };
}

export class SimCluster {
  private readonly instances: (RunningSyncServer | null)[];
  /** The store as a reader of its own sees it (not any instance's cache). */
  readonly reader: StorageAdapter;

  private constructor(
    readonly storage: ClusterStorage,
    instances: RunningSyncServer[],
  ) {
    this.instances = instances;
    this.reader = createStorage(storage);
  }

  /** `instances` servers over `storage` (closing the cluster stops them; the store stays). */
  static async start(opts: { storage: ClusterStorage; instances?: number }): Promise<SimCluster> {
    const instances = await Promise.all(
      Array.from({ length: opts.instances ?? 3 }, () => startInstance(opts.storage)),
    );
    return new SimCluster(opts.storage, instances);
  }

  get size(): number {
    return this.instances.length;
  }

  /** The instance a request goes to: `index`'s, or a dead one's last address (nothing answers there). */
  url(index: number): string {
    return this.instances[index]?.url ?? this.deadUrls.get(index)!;
  }

  isAlive(index: number): boolean {
    return this.instances[index] !== null;
  }

  private readonly deadUrls = new Map<number, string>();

  /** The instance stops answering (its port closes); requests sent there fail. */
  async kill(index: number): Promise<void> {
    const instance = this.instances[index];
    if (!instance) return;
    this.deadUrls.set(index, instance.url);
    this.instances[index] = null;
    await instance.close();
  }

  /** A new process takes the dead instance's place (an empty cache, a new port). */
  async revive(index: number): Promise<void> {
    if (this.instances[index]) return;
    this.instances[index] = await startInstance(this.storage);
    this.deadUrls.delete(index);
  }

  /**
   * A scope's state read from the store itself: the manifest, and every active entry's stored
   * revision, each checked against the hash the manifest names.
   */
  async read(user: string, scope: SyncScope): Promise<ScopeState> {
    const key = manifestKey(user, scope);
    const stored = await this.reader.get(key);
    const notes = new Map<string, { hash: string; content: string }>();
    if (!stored) return { version: 0, notes };
    const manifest = parseManifest(stored.body, key);
    const active = manifest.entries.filter((entry) => entry.hash !== null);
    // Read with the server's own layout (objects and packs), straight from the store.
    const objects = await readRevisions(this.reader, { sub: user, scope, sealed: false }, active).catch(
      (err: unknown) => {
        throw new Error(`the store lacks a revision its manifest names: ${(err as Error).message}`);
      },
    );
    for (const { id, hash, content } of objects) {
      const parsed = parseNote(content);
      if (!parsed.ok || contentHash(parsed.note) !== hash)
        throw new Error(`the stored revision of "${id}" does not have the hash its manifest names`);
      notes.set(id, { hash, content });
    }
    return { version: manifest.version, notes };
  }

  /** The account's data in a directory store (null on S3: the faults below need a directory). */
  private userDir(user: string): string | null {
    return this.storage.kind === 'fs' ? path.join(this.storage.dir, 'users', userSegment(user)) : null;
  }

  /** Whether the store's data can be wiped and restored (a directory store). */
  get restorable(): boolean {
    return this.storage.kind === 'fs';
  }

  /** A copy of the account's data as it is now (an operator's backup), in `to`. */
  async backUp(user: string, to: string): Promise<void> {
    const dir = this.userDir(user)!;
    await fs.rm(to, { recursive: true, force: true });
    if (await fs.stat(dir).catch(() => null)) await fs.cp(dir, to, { recursive: true });
    else await fs.mkdir(to, { recursive: true });
  }

  /**
   * The account's data lost (`from` null: wiped) or replaced by an older backup, as an operator
   * does it: every instance stopped first (a request whose answer was dropped may still be
   * writing), then started again (no cache of the lost history survives).
   */
  async replaceData(user: string, from: string | null): Promise<void> {
    const dir = this.userDir(user)!;
    for (let i = 0; i < this.instances.length; i++) await this.kill(i);
    await fs.rm(dir, { recursive: true, force: true, maxRetries: 10 });
    if (from) await fs.cp(from, dir, { recursive: true });
    for (let i = 0; i < this.instances.length; i++) await this.revive(i);
  }

  async close(): Promise<void> {
    for (const instance of this.instances) await instance?.close();
  }
}

function startInstance(storage: ClusterStorage): Promise<RunningSyncServer> {
  return startSyncServer({
    host: '127.0.0.1',
    port: 0,
    storage,
    jwtSecret: SIM_SECRET,
    rateLimit: null,
    log: () => {},
  });
}
