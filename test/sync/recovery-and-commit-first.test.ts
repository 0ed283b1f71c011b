import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFaultProxy } from './fault-proxy.js';
import {
  startDevice,
  startProjectDevice,
  startTestServer,
  tempDir,
  type Device,
  type TestServer,
  useTestServer,
} from './harness.js';

let server: TestServer;
let n = 0;
const open: Device[] = [];
useTestServer((started) => (server = started), open);

class SimulatedCrash extends Error {}

describe('crash safety', () => {
  it('a crash between the cloud commit and the local write of a merge: the next round finishes it, no conflict', async () => {
    const token = await server.token(`user-${++n}`);
    const a = await startDevice('a', server, { token });
    const b = await startDevice('b', server, { token });
    open.push(a, b);
    await a.write('m', 'one\ntwo\nthree\nfour\nfive\n');
    await a.sync();
    await b.sync();
    await a.write('m', 'ONE\ntwo\nthree\nfour\nfive\n');
    await a.sync();
    await b.write('m', 'one\ntwo\nthree\nfour\nFIVE\n');
    b.svc.hooks.afterCommit = () => {
      throw new SimulatedCrash('crash after commit');
    };
    expect((await b.sync()).outcome).toBe('transient');
    expect(b.get('m')?.body).toBe('one\ntwo\nthree\nfour\nFIVE\n'); // not written yet
    await b.close();
    // The process restarts from its files.
    const b2 = await startDevice('b2', server, { token, home: b.home });
    open.push(b2);
    await b2.sync();
    await a.sync();
    const merged = 'ONE\ntwo\nthree\nfour\nFIVE\n';
    expect(b2.get('m')?.body).toBe(merged);
    expect(a.get('m')?.body).toBe(merged);
    expect(await b2.svc.conflicts()).toEqual([]);
  });

  it('an answer lost after the server committed: the next round converges without a conflict', async () => {
    let drop = true;
    const proxy = await startFaultProxy(server.url, ({ url }) =>
      drop && url.includes('commit') ? 'drop' : 'pass',
    );
    try {
      const token = await server.token(`user-${++n}`);
      const a = await startDevice('a', server, { token });
      const b = await startDevice('b', proxy, { token });
      open.push(a, b);
      await a.write('m', 'one\ntwo\nthree\nfour\nfive\n');
      await a.sync();
      await b.sync();
      await a.write('m', 'ONE\ntwo\nthree\nfour\nfive\n');
      await a.sync();
      await b.write('m', 'one\ntwo\nthree\nfour\nFIVE\n');
      await b.write('fresh', 'new on b\n');
      expect((await b.sync()).outcome).toBe('transient');
      drop = false;
      await b.sync();
      await a.sync();
      expect(b.get('m')?.body).toBe('ONE\ntwo\nthree\nfour\nFIVE\n');
      expect(a.get('m')?.body).toBe('ONE\ntwo\nthree\nfour\nFIVE\n');
      expect(a.get('fresh')?.body).toBe('new on b\n');
      expect(await b.svc.conflicts()).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  /**
   * Soak seeds 8164 and 8233: b's push of a new note is committed but its answer is lost (or b is
   * killed before it hears it); a pulls the note and deletes it; only then does b sync again. The
   * cloud no longer holds b's version, so only the tombstone (which names the version it deleted)
   * says the push had been committed: the note stays deleted, everywhere.
   */
  async function pushCommittedThenChangedElsewhere(): Promise<{
    a: Device;
    b: Device;
    proxyClose: () => Promise<void>;
  }> {
    let drop = true;
    const proxy = await startFaultProxy(server.url, ({ url }) =>
      drop && url.includes('commit') ? 'drop' : 'pass',
    );
    const token = await server.token(`user-${++n}`);
    const a = await startDevice('a', server, { token });
    const b = await startDevice('b', proxy, { token });
    open.push(a, b);
    await b.write('kept', 'kept on b\n');
    await b.write('alpha', 'created on b\n');
    expect((await b.sync()).outcome).toBe('transient');
    expect(await b.svc.baselines.loadJournal()).not.toBeNull();
    drop = false;
    await a.sync();
    expect(a.get('alpha')?.body).toBe('created on b\n');
    return { a, b, proxyClose: () => proxy.close() };
  }

  it('a push committed with its answer lost, then deleted on another device: deleted here too, not uploaded again', async () => {
    const { a, b, proxyClose } = await pushCommittedThenChangedElsewhere();
    try {
      await a.remove('alpha');
      await a.sync();
      await b.sync();
      await a.sync();
      expect(b.ids()).toEqual(['kept']);
      expect(a.ids()).toEqual(['kept']);
      expect(await b.svc.conflicts()).toEqual([]);
    } finally {
      await proxyClose();
    }
  });

  it('a push committed with its answer lost, then edited on another device: the edit arrives here, no conflict', async () => {
    const { a, b, proxyClose } = await pushCommittedThenChangedElsewhere();
    try {
      await a.write('alpha', 'edited on a\n');
      await a.sync();
      await b.sync();
      expect(b.get('alpha')?.body).toBe('edited on a\n');
      expect(await b.svc.conflicts()).toEqual([]);
    } finally {
      await proxyClose();
    }
  });

  /**
   * Soak seed 30691: the other side of the rule above. b undoes a's edit exactly (the version b
   * pushes is the one a's edit replaced), and the push is refused (429: not committed). The
   * cloud's entry still names that version as the one it replaced — from a's edit, before b's push
   * was planned — so it says nothing about b's push: the undo is pushed again, not taken for a push
   * committed and then changed back (which pulled a's edit back over it, or merged it back in).
   */
  it('a push not committed that undoes another device’s edit is pushed again, not reverted', async () => {
    let refuse = false;
    const proxy = await startFaultProxy(server.url, ({ url }) =>
      refuse && url.includes('commit') ? { rate429: 1 } : 'pass',
    );
    try {
      const token = await server.token(`user-${++n}`);
      const a = await startDevice('a', server, { token });
      const b = await startDevice('b', proxy, { token });
      open.push(a, b);
      await a.write('undone', 'one\ntwo\n');
      await a.write('undone-then-edited', 'one\ntwo\n');
      await a.sync();
      await a.write('undone', 'one\nadded on a\ntwo\n');
      await a.write('undone-then-edited', 'one\nadded on a\ntwo\n');
      await a.sync();
      await b.sync();
      await b.write('undone', 'one\ntwo\n');
      await b.write('undone-then-edited', 'one\ntwo\n');
      refuse = true;
      expect((await b.sync()).outcome).not.toBe('ok');
      expect(await b.svc.baselines.loadJournal()).not.toBeNull();
      refuse = false;
      await b.write('undone-then-edited', 'one\ntwo\nthree on b\n');
      await b.sync();
      await a.sync();
      for (const d of [a, b]) {
        expect(d.get('undone')?.body).toBe('one\ntwo\n');
        expect(d.get('undone-then-edited')?.body).toBe('one\ntwo\nthree on b\n');
      }
      expect(await b.svc.conflicts()).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  /**
   * Soak seeds 1123, 5509, 5919, 5935 (docs/sync-engine.md): a process killed after a round wrote
   * pulled notes here and before it saved the baseline. A crash at 'save:state' stands for it.
   */
  async function pulledThenKilled(): Promise<{ a: Device; b2: Device }> {
    const token = await server.token(`user-${++n}`);
    const a = await startDevice('a', server, { token });
    const b = await startDevice('b', server, { token });
    open.push(a, b);
    await b.sync();
    await a.write('p', 'pulled by b\n');
    await a.write('q', 'old\n');
    await a.sync();
    await b.sync();
    await a.write('q', 'changed\n');
    await a.write('r', 'new on a\n');
    await a.sync();
    b.svc.hooks.point = async (name) => {
      if (name === 'save:state') throw new SimulatedCrash('killed before the baseline was saved');
    };
    expect((await b.sync()).outcome).toBe('transient');
    expect(b.get('r')?.body).toBe('new on a\n'); // written, but the baseline does not know it
    await b.close();
    const b2 = await startDevice('b2', server, { token, home: b.home });
    open.push(b2);
    return { a, b2 };
  }

  it('a note pulled just before a crash and then deleted on another device is deleted here, not uploaded again', async () => {
    const { a, b2 } = await pulledThenKilled();
    await a.remove('r');
    await a.write('q', 'changed again\n');
    await a.sync();
    await b2.sync();
    await a.sync();
    expect(b2.get('r')).toBeUndefined();
    expect(a.get('r')).toBeUndefined();
    expect(b2.get('q')?.body).toBe('changed again\n');
    expect(await b2.svc.conflicts()).toEqual([]);
  });

  it('a note pulled just before a crash, then edited and deleted here before any round: the delete reaches the cloud', async () => {
    const { a, b2 } = await pulledThenKilled();
    await b2.write('r', 'new on a\nedited on b\n');
    await b2.remove('r');
    await b2.remove('q');
    await b2.sync();
    await a.sync();
    await b2.sync();
    expect(a.ids()).toEqual(['p']);
    expect(b2.ids()).toEqual(['p']);
    expect(await b2.svc.conflicts()).toEqual([]);
  });

  it('killed partway through writing the pulls, then a note already written is edited here: an edit over the pulled version, no conflict', async () => {
    const token = await server.token(`user-${++n}`);
    const a = await startDevice('a', server, { token });
    const b = await startDevice('b', server, { token });
    open.push(a, b);
    await b.sync();
    await a.write('p1', 'first\n');
    await a.write('p2', 'second\n');
    await a.write('p3', 'third\n');
    await a.sync();
    let writes = 0;
    b.svc.hooks.point = async (name) => {
      // Killed at the third write: two pulls are on disk, not yet confirmed in the journal.
      if (name === 'apply:write' && ++writes === 3) throw new SimulatedCrash('killed mid-pull');
    };
    expect((await b.sync()).outcome).toBe('transient');
    expect(b.ids()).toEqual(['p1', 'p2']);
    await b.close();
    const b2 = await startDevice('b2', server, { token, home: b.home });
    open.push(b2);
    await b2.write('p1', 'first\nedited on b\n');
    await b2.remove('p2');
    await b2.sync();
    await a.sync();
    expect(await b2.svc.conflicts()).toEqual([]);
    expect(b2.ids()).toEqual(['p1', 'p3']);
    expect(a.ids()).toEqual(['p1', 'p3']);
    expect(a.get('p1')?.body).toBe('first\nedited on b\n');
  });

  it('killed before writing a pulled note it did not have, then the person creates a note of that id: theirs beside the cloud’s, not an edit over it (seed 32714)', async () => {
    const token = await server.token(`user-${++n}`);
    const a = await startDevice('a', server, { token });
    const b = await startDevice('b', server, { token });
    open.push(a, b);
    await a.write('gamma', 'written on a\n');
    await a.sync();
    b.svc.hooks.point = async (name) => {
      // Killed before the pull's write: the journal names the pull, no file is written.
      if (name === 'apply:write') throw new SimulatedCrash('killed before the write');
    };
    expect((await b.sync()).outcome).toBe('transient');
    expect(b.ids()).toEqual([]);
    await b.close();
    const b2 = await startDevice('b2', server, { token, home: b.home });
    open.push(b2);
    await b2.write('gamma', 'written on b\n');
    await b2.sync();
    await a.sync();
    // Two notes a person wrote under one id: asked on b, and a's stays as it was.
    expect(a.get('gamma')?.body).toBe('written on a\n');
    expect(b2.get('gamma')?.body).toBe('written on b\n');
    expect((await b2.svc.conflicts()).map((c) => [c.id, c.kind])).toEqual([['gamma', 'no_base']]);
  });

  it('a journal written before pulls were journaled (pushes only) still loads and recovers', async () => {
    const token = await server.token(`user-${++n}`);
    const a = await startDevice('a', server, { token });
    const b = await startDevice('b', server, { token });
    open.push(a, b);
    await a.write('m', 'one\n');
    await a.sync();
    await b.sync();
    await b.write('m', 'one\nfrom b\n');
    b.svc.hooks.afterCommit = () => {
      throw new SimulatedCrash('crash after commit');
    };
    expect((await b.sync()).outcome).toBe('transient');
    await b.close();
    const file = path.join(b.svc.baselines.dir, 'journal.json');
    const { pulls, ...old } = JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;
    expect(pulls).toEqual([]);
    await fs.writeFile(file, JSON.stringify(old));
    const b2 = await startDevice('b2', server, { token, home: b.home });
    open.push(b2);
    expect((await b2.svc.baselines.loadJournal())?.pulls).toEqual([]);
    await b2.sync();
    await a.sync();
    expect(a.get('m')?.body).toBe('one\nfrom b\n');
    await a.write('m', 'one\nfrom b\nfrom a\n');
    await a.sync();
    await b2.sync();
    expect(b2.get('m')?.body).toBe('one\nfrom b\nfrom a\n');
    expect(await b2.svc.conflicts()).toEqual([]);
    await expect(fs.access(file)).rejects.toThrow();
  });

  it('a damaged baseline is set aside, not trusted: notes changed on both sides become conflicts, nothing is lost', async () => {
    const token = await server.token(`user-${++n}`);
    const a = await startDevice('a', server, { token });
    const b = await startDevice('b', server, { token });
    open.push(a, b);
    await a.write('d', 'base\n');
    await a.sync();
    await b.sync();
    await fs.writeFile(path.join(b.svc.baselines.dir, 'state.json'), '{ torn');
    await a.write('d', 'from a\n');
    await a.sync();
    await b.write('d', 'from b\n');
    await b.sync();
    expect((await b.svc.conflicts()).map((c) => c.kind)).toEqual(['no_base']);
    expect(b.get('d')?.body).toBe('from b\n');
    expect((await fs.readdir(b.svc.baselines.dir)).some((f) => f.startsWith('state.damaged-'))).toBe(true);
  });
});

describe('commitFirst (cleanup merges)', () => {
  it('commits to the cloud before this computer, then writes here', async () => {
    const token = await server.token(`user-${++n}`);
    const a = await startDevice('a', server, { token });
    const b = await startDevice('b', server, { token });
    open.push(a, b);
    await a.write('keep', 'k\n');
    await a.write('dup', 'd\n');
    await a.sync();
    await b.sync();
    const keep = a.get('keep')!;
    const dup = a.get('dup')!;
    const result = await a.engine.commitFirst(a.svc, {
      puts: [{ note: { ...keep, body: 'k\nd\n', updatedAt: a.clock.now() }, expectedHash: keep.hash }],
      deletes: [{ id: 'dup', expectedHash: dup.hash }],
      backupReason: 'cleanup: merged duplicates',
    });
    expect(result.cloud).toBe('committed');
    expect(a.ids()).toEqual(['keep']);
    expect(a.get('keep')?.body).toBe('k\nd\n');
    await b.sync();
    expect(b.ids()).toEqual(['keep']);
    expect(b.get('keep')?.body).toBe('k\nd\n');
    // Nothing left to sync on a.
    const before = server.requests.length;
    expect(await a.sync()).toEqual({ outcome: 'ok', changed: false });
    expect(server.requests.length - before).toBe(1);
  });

  it('an edit from another device in between rejects the merge instead of becoming a conflict', async () => {
    const token = await server.token(`user-${++n}`);
    const a = await startDevice('a', server, { token });
    const b = await startDevice('b', server, { token });
    open.push(a, b);
    await a.write('keep', 'k\n');
    await a.write('dup', 'd\n');
    await a.sync();
    await b.sync();
    await b.write('dup', 'd edited on b\n');
    await b.sync();
    const keep = a.get('keep')!;
    const dup = a.get('dup')!;
    await expect(
      a.engine.commitFirst(a.svc, {
        puts: [{ note: { ...keep, body: 'k\nd\n' }, expectedHash: keep.hash }],
        deletes: [{ id: 'dup', expectedHash: dup.hash }],
        backupReason: 'cleanup: merged duplicates',
      }),
    ).rejects.toThrow(/changed since the merge was planned|not fully synced/);
    // Nothing was applied anywhere; the edit from b arrived instead.
    expect(a.get('dup')?.body).toBe('d edited on b\n');
    expect(a.get('keep')?.body).toBe('k\n');
    expect(await a.svc.conflicts()).toEqual([]);
  });

  it('with sync off it is a plain local edit', async () => {
    const a = await startDevice('a', server, { token: await server.token(`user-${++n}`) });
    open.push(a);
    await a.write('keep', 'k\n');
    await a.engine.setEnabled([a.svc], false);
    const before = server.requests.length;
    const keep = a.get('keep')!;
    const result = await a.engine.commitFirst(a.svc, {
      puts: [{ note: { ...keep, body: 'new\n' }, expectedHash: keep.hash }],
      deletes: [],
      backupReason: 'cleanup',
    });
    expect(result.cloud).toBe('local');
    expect(a.get('keep')?.body).toBe('new\n');
    expect(server.requests.length).toBe(before);
  });
});

describe('project scope', () => {
  it('project notes sync per project id; user notes sync once however many projects are open', async () => {
    const token = await server.token(`user-${++n}`);
    const rootA = await tempDir('proj');
    const rootB = await tempDir('proj');
    await fs.mkdir(path.join(rootA, '.oharness'), { recursive: true });
    await fs.writeFile(
      path.join(rootA, '.oharness', 'project.json'),
      JSON.stringify({ id: 'shared-project-1' }),
    );
    await fs.mkdir(path.join(rootB, '.oharness'), { recursive: true });
    await fs.writeFile(
      path.join(rootB, '.oharness', 'project.json'),
      JSON.stringify({ id: 'shared-project-1' }),
    );
    const devA = await startProjectDevice('pa', server, token, rootA);
    const devB = await startProjectDevice('pb', server, token, rootB);
    const pa = devA.engine.attachProject(devA.core)!;
    devA.engine.attachUser(devA.core.user);
    // A second project open in the same process shares the user directory's service.
    const other = await tempDir('proj-other');
    const { createMemoryCore } = await import('../../electron/memory/core.js');
    const core2 = await createMemoryCore({ home: devA.home, projectRoot: other, user: devA.core.user });
    devA.engine.attachUser(core2.user);
    expect(devA.engine.all().filter((s) => s.scope === 'user')).toHaveLength(1);
    const pb = devB.engine.attachProject(devB.core)!;
    await pa.service.store.write({
      id: 'proj-note',
      summary: 'p',
      tags: [],
      body: 'project body\n',
      createdAt: 1,
      updatedAt: 1,
    });
    await devA.engine.syncNow();
    await devB.engine.syncNow([pb.service]);
    expect(pb.service.store.get('proj-note')?.body).toBe('project body\n');
    devA.engine.stop();
    devB.engine.stop();
  });

  it('against an old server, untyped project notes still sync and typed ones wait with a message', async () => {
    const old = await startTestServer({ protocol: { min: 1, current: 1 } });
    try {
      const token = await old.token('old-server-user');
      const root = await tempDir('proj');
      const dev = await startProjectDevice('po', old, token, root);
      const svc = dev.engine.attachProject(dev.core)!.service;
      await svc.store.write({
        id: 'untyped',
        summary: 'u',
        tags: [],
        body: 'x\n',
        createdAt: 1,
        updatedAt: 1,
      });
      await svc.store.write({
        id: 'typed',
        summary: 't',
        type: 'project',
        tags: [],
        body: 'x\n',
        createdAt: 1,
        updatedAt: 1,
      });
      const result = (await dev.engine.syncNow([svc])).get(svc)!;
      expect(svc.error).toBeNull();
      expect(result.outcome).toBe('ok');
      expect(Object.keys((await svc.state()).manifest.entries)).toEqual(['untyped']);
      expect(svc.notices.join('\n')).toMatch(/"typed" has a type/);
      dev.engine.stop();
    } finally {
      await old.close();
    }
  });
});
