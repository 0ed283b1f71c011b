import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BaselineStore, type BaselineState } from '../../electron/sync/baseline-store.js';
import type { SyncStatus } from '../../shared/api/sync.js';
import { serializeNote } from '../../shared/note-format.js';
import { startSeededBridge, type BridgeEnv } from './helpers.js';

/**
 * `sync.status` answers from the baseline it kept between calls (electron/sync/status-snapshot.ts):
 * it must still show at once what a round of another process wrote, and a note changed here.
 */
let env: BridgeEnv;
beforeAll(async () => {
  env = await startSeededBridge();
}, 60_000);
afterAll(() => env.close());

async function userStatus(): Promise<SyncStatus['scopes'][number]> {
  const res = await fetch(`${env.base}/api/invoke`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...env.auth },
    body: JSON.stringify({ method: 'sync.status', input: {} }),
  });
  const body = (await res.json()) as { result: SyncStatus };
  return body.result.scopes.find((s) => s.scope === 'user')!;
}

/** Saves the user scope's baseline as another process's round would: a separate store on the same file. */
async function saveBaselineElsewhere(lastSyncedAt: number): Promise<void> {
  const engine = await env.bridge.context.sync!.engine();
  const svc = engine.servicesOf(env.bridge.context.core).find((s) => s.scope === 'user')!;
  const other = new BaselineStore(svc.baselines.dir, svc.baselines.scopeKey);
  const base: Record<string, string> = {};
  for (const n of svc.store.list()) base[n.id] = n.hash;
  const state: BaselineState = {
    format: 1,
    scopeKey: svc.baselines.scopeKey,
    manifest: { version: 1, entries: {} },
    base,
    lastSyncedAt,
    lastPull: null,
    boundTo: null,
  };
  await fs.mkdir(svc.baselines.dir, { recursive: true });
  await other.saveState(state);
}

describe('sync.status kept between calls', { timeout: 60_000 }, () => {
  it('shows a baseline written by another process and a note changed here at once', async () => {
    const before = await userStatus();
    expect(before.lastSyncedAt).toBeNull();
    expect(before.pendingUploads).toBeGreaterThan(0);
    expect((await userStatus()).pendingUploads).toBe(before.pendingUploads);

    await saveBaselineElsewhere(1_000);
    const synced = await userStatus();
    expect(synced.lastSyncedAt).toBe(1_000);
    expect(synced.pendingUploads).toBe(0);

    // The same file again with only the time changed (same size): still seen.
    await saveBaselineElsewhere(2_000);
    expect((await userStatus()).lastSyncedAt).toBe(2_000);

    await fs.writeFile(
      path.join(env.userDir, 'written-after-sync.md'),
      serializeNote({
        id: 'written-after-sync',
        summary: 'Written after the last sync',
        tags: [],
        createdAt: 5_000,
        updatedAt: 5_000,
        body: 'new here\n',
      }),
    );
    await expect.poll(async () => (await userStatus()).pendingUploads, { timeout: 20_000 }).toBe(1);
  });
});
