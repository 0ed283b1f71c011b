import type { SyncLimits, SyncQuotas, SyncScope } from '../shared/sync-protocol.js';
import type { Entitlements } from './entitlements.js';
import type { ManifestCache } from './manifest-cache.js';
import type { StorageAdapter } from './storage/storage.js';

/** What every handler gets: the server's settings and the verified caller. */
export interface ServerDeps {
  storage: StorageAdapter;
  /** Parsed manifests, validated against storage on every use. */
  manifests: ManifestCache;
  now: () => number;
  quotas: SyncQuotas;
  entitlements: Entitlements;
  protocol: { min: number; current: number };
  /** Serialises commits to one scope within this process (CAS still guards across processes). */
  scopeLock: KeyedMutex;
  /** Compare-and-swap attempts before answering `busy`. */
  maxCasAttempts: number;
}

export interface Caller {
  sub: string;
  limits: SyncLimits;
  /** The protocol version the client sent. */
  protocol: number;
}

export function scopeLabel(scope: SyncScope): string {
  return scope.kind === 'user' ? 'user notes' : `project ${scope.projectId}`;
}

/** Runs tasks with the same key one after another. */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => undefined); // the queue only orders: `result` rejects to this caller
    this.tails.set(key, tail);
    try {
      return await result;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
