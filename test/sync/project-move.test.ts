import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MemoryCore } from '../../electron/memory/types.js';
import type { SyncEngine } from '../../electron/sync/sync-engine.js';
import type { SyncService } from '../../electron/sync/sync-service.js';
import { scopeKeyHash } from '../../electron/sync/scope-key.js';
import { expectOk, startProjectDevice, tempDir, type TestServer, useTestServer } from './harness.js';

let server: TestServer;
let n = 0;
useTestServer((started) => (server = started), []);

interface ProjectDevice {
  core: MemoryCore;
  engine: SyncEngine;
  svc: SyncService;
  home: string;
  sync(): Promise<void>;
  write(id: string, body: string): Promise<void>;
  ids(): string[];
  body(id: string): string | undefined;
  close(): Promise<void>;
}

async function newProject(id: string): Promise<string> {
  const root = await tempDir('proj');
  await fs.mkdir(path.join(root, '.oharness'), { recursive: true });
  await fs.writeFile(path.join(root, '.oharness', 'project.json'), JSON.stringify({ id }));
  return root;
}

async function open(name: string, token: string, root: string, home?: string): Promise<ProjectDevice> {
  const dev = await startProjectDevice(name, server, token, root, home);
  const svc = dev.engine.attachProject(dev.core)!.service;
  const store = svc.store;
  return {
    ...dev,
    svc,
    sync: async () => expectOk((await dev.engine.syncNow([svc])).get(svc)!),
    write: async (id, body) => {
      await store.write({
        id,
        summary: `note ${id}`,
        tags: [],
        body,
        createdAt: 1,
        updatedAt: dev.clock.now(),
      });
    },
    ids: () =>
      store
        .list()
        .map((x) => x.id)
        .sort(),
    body: (id) => store.get(id)?.body,
    close: async () => {
      dev.engine.stop();
      await dev.core.close();
    },
  };
}

async function setup(): Promise<{
  token: string;
  projectId: string;
  rootP: string;
  p: ProjectDevice;
  q: ProjectDevice;
}> {
  const token = await server.token(`mover-${++n}`);
  const projectId = `moving-project-${n}`;
  const rootP = await newProject(projectId);
  const p = await open('p', token, rootP);
  const q = await open('q', token, await newProject(projectId));
  for (const id of ['n1', 'n2', 'n3', 'n4']) await p.write(id, `${id} first\n`);
  await p.sync();
  await q.sync();
  expect(q.ids()).toEqual(['n1', 'n2', 'n3', 'n4']);
  return { token, projectId, rootP, p, q };
}

/** The baseline directories of a project in a home (one per checkout). */
async function baselinesOf(home: string, projectId: string): Promise<string[]> {
  const key = scopeKeyHash({ scope: 'project', projectId });
  return (await fs.readdir(path.join(home, 'memory-sync'))).filter((name) => name.startsWith(`${key}-`));
}

describe('moving the project folder keeps its sync state', () => {
  it('an unsynced edit, an unsynced delete and a delete from another device keep their meaning after a move', async () => {
    const { token, projectId, rootP, p, q } = await setup();
    // A baseline written before locations were recorded (path-keyed) is found and migrated.
    const [dirName] = await baselinesOf(p.home, projectId);
    const stateFile = path.join(p.home, 'memory-sync', dirName!, 'state.json');
    const state = JSON.parse(await fs.readFile(stateFile, 'utf8')) as Record<string, unknown>;
    expect(state.location).toMatchObject({ root: path.resolve(rootP) });
    delete state.location;
    await fs.writeFile(stateFile, JSON.stringify(state));
    await p.close();
    let moved = await open('p', token, rootP, p.home);
    await moved.sync();
    expect(JSON.parse(await fs.readFile(stateFile, 'utf8')).location).toMatchObject({
      root: path.resolve(rootP),
    });

    await moved.write('n1', 'n1 edited here before the move\n');
    await moved.svc.store.delete('n2', { backupReason: 'test: deleted by the person' });
    await q.svc.store.delete('n3', { backupReason: 'test: deleted by the person' });
    await q.sync();
    await moved.close();
    const newRoot = `${rootP}-renamed`;
    await fs.rename(rootP, newRoot);

    moved = await open('p', token, newRoot, p.home);
    await moved.sync();
    expect(await moved.svc.conflicts()).toEqual([]);
    expect(moved.ids()).toEqual(['n1', 'n4']);
    expect(moved.body('n1')).toBe('n1 edited here before the move\n');
    expect(await baselinesOf(p.home, projectId)).toEqual([dirName]);
    await q.sync();
    expect(q.ids()).toEqual(['n1', 'n4']);
    expect(q.body('n1')).toBe('n1 edited here before the move\n');
    await moved.close();
    await q.close();
  });

  it('two clones of one project on one machine: each keeps its own baseline, nothing is deleted', async () => {
    const { token, projectId, rootP, p, q } = await setup();
    // A second checkout beside the first (same project id), with one note missing and one of its own.
    const clone = await tempDir('clone');
    await fs.cp(rootP, clone, { recursive: true });
    const cloneNotes = p.svc.store.dir.replace(rootP, clone);
    await fs.rm(path.join(cloneNotes, 'n4.md'));
    const c = await open('c', token, clone, p.home);
    await c.write('only-in-clone', 'from the clone\n');
    await c.sync();
    expect(await baselinesOf(p.home, projectId)).toHaveLength(2);
    // Its missing file is not a deletion (it never synced from here): it comes back from the cloud.
    expect(c.ids()).toEqual(['n1', 'n2', 'n3', 'n4', 'only-in-clone']);
    expect(await c.svc.conflicts()).toEqual([]);
    await p.sync();
    expect(p.ids()).toEqual(['n1', 'n2', 'n3', 'n4', 'only-in-clone']);
    expect(await p.svc.conflicts()).toEqual([]);
    await q.sync();
    expect(q.ids()).toEqual(['n1', 'n2', 'n3', 'n4', 'only-in-clone']);
    // A delete in one clone reaches the other as a delete (each has its own baseline).
    await p.svc.store.delete('n2', { backupReason: 'test: deleted by the person' });
    await p.sync();
    await c.sync();
    expect(c.ids()).toEqual(['n1', 'n3', 'n4', 'only-in-clone']);
    await c.close();
    await p.close();
    await q.close();
  });
});
