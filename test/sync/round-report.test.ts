import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from './cli-runner.js';
import {
  expectOk,
  startDevice,
  startTestServer,
  tempDir,
  type Device,
  type TestServer,
  useTestServer,
} from './harness.js';

let server: TestServer;
const open: Device[] = [];
useTestServer((started) => (server = started), open);

describe('what a round could not do reaches the person', () => {
  it(
    'a pulled note too large to write here (maxNoteBytes 100): the notice reaches status, sync --json and memdesk status, and the round is not clean',
    { timeout: 60_000 },
    async () => {
      const token = await server.token('lost-notice');
      const a = await startDevice('a', server, { token });
      open.push(a);
      await a.write('big', 'x'.repeat(500) + '\n');
      expectOk(await a.sync());

      const home = await tempDir('home-small');
      await fs.writeFile(path.join(home, 'config.json'), JSON.stringify({ memory: { maxNoteBytes: 100 } }));
      const g = ['--home', home, '--project', home];
      expect((await cli([...g, 'login', '--origin', server.url, '--token', token], home)).code).toBe(0);
      const synced = await cli([...g, '--json', 'sync', '--scope', 'user'], home);
      expect(synced.code, synced.stderr).toBe(0);
      const report = JSON.parse(synced.stdout).scopes.user;
      expect(report.pulled).toEqual({ added: 0, changed: 0, deleted: 0 });
      expect(report.notices.join('\n')).toMatch(
        /"big" from the cloud is not written here: .*maxNoteBytes \(100\)/,
      );
      await expect(fs.access(path.join(home, 'memory', 'user', 'big.md'))).rejects.toThrow();

      // Another process (the app, a later `memdesk status`) sees it too: it is kept with the baseline.
      const status = await cli([...g, 'status'], home);
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toMatch(/note: Your own notes: "big" from the cloud is not written here/);
      const json = JSON.parse((await cli([...g, '--json', 'status'], home)).stdout);
      const user = json.scopes.find((s: { scope: string }) => s.scope === 'user');
      expect(user.notices.join('\n')).toMatch(/"big" from the cloud is not written here/);

      // The next round still cannot write it and says so again; it is not reported as synced.
      const again = JSON.parse((await cli([...g, '--json', 'sync', '--scope', 'user'], home)).stdout).scopes
        .user;
      expect(again.notices.join('\n')).toMatch(/"big" from the cloud is not written here/);
    },
  );

  it('status counts notes waiting to upload and adds up every round this process ran (the page’s round toast)', async () => {
    const token = await server.token('round-totals');
    const a = await startDevice('a', server, { token });
    const b = await startDevice('b', server, { token });
    open.push(a, b);
    await a.write('one', 'first\n');
    await a.write('two', 'second\n');
    let status = await a.engine.status(a.svc);
    expect(status.pendingUploads).toBe(2);
    expect(status.roundTotals).toEqual({
      rounds: 0,
      added: 0,
      changed: 0,
      deleted: 0,
      pushed: 0,
      conflicts: 0,
    });

    expectOk(await a.sync());
    status = await a.engine.status(a.svc);
    expect(status.pendingUploads).toBe(0);
    expect(status.roundTotals).toMatchObject({ rounds: 1, pushed: 2, conflicts: 0 });

    expectOk(await b.sync());
    expect((await b.engine.status(b.svc)).roundTotals).toMatchObject({ rounds: 1, added: 2, pushed: 0 });

    // An edit and a delete here: two to upload; the same note edited on both sides: a conflict.
    await a.write('one', 'first, edited on a\n');
    await a.remove('two');
    expect((await a.engine.status(a.svc)).pendingUploads).toBe(2);
    expectOk(await a.sync());
    await b.write('one', 'first, edited on b\n');
    expect((await b.engine.status(b.svc)).pendingUploads).toBe(1);
    await b.sync();
    status = await b.engine.status(b.svc);
    expect(status.conflicts.map((c) => c.id)).toEqual(['one']);
    // The conflict waits for the person: not counted as an upload.
    expect(status.pendingUploads).toBe(0);
    expect(status.roundTotals).toMatchObject({ rounds: 2, added: 2, deleted: 1, conflicts: 1 });
  });

  it('the device’s own status keeps the notice after the round (it is not overwritten)', async () => {
    const token = await server.token('lost-notice-device');
    const a = await startDevice('a', server, { token });
    const home = await tempDir('home-small-device');
    await fs.writeFile(path.join(home, 'config.json'), JSON.stringify({ memory: { maxNoteBytes: 100 } }));
    const b = await startDevice('b', server, { token, home });
    open.push(a, b);
    await a.write('big', 'y'.repeat(500) + '\n');
    await a.write('small', 'fits\n');
    expectOk(await a.sync());
    const result = await b.sync();
    expect(result).toEqual({ outcome: 'ok', changed: true });
    expect(b.ids()).toEqual(['small']);
    const status = await b.engine.status(b.svc);
    expect(status.notices.join('\n')).toMatch(/"big" from the cloud is not written here/);
    expect(b.svc.lastRound?.pulled).toEqual({ added: 1, changed: 0, deleted: 0 });
  });

  it(
    'every note that stays on this computer is listed with its reason: sync --json, memdesk status, the status',
    { timeout: 60_000 },
    async () => {
      const tight = await startTestServer({
        entitlements: { paidPlans: ['paid'], free: { notesPerScope: 3, bytesPerNote: 4096 } },
      });
      try {
        const home = await tempDir('home-local-only');
        const g = ['--home', home, '--project', home];
        const token = await tight.token('local-only', 'free');
        expect((await cli([...g, 'login', '--origin', tight.url, '--token', token], home)).code).toBe(0);
        const dir = path.join(home, 'memory', 'user');
        await fs.mkdir(dir, { recursive: true });
        const file = (id: string, body: string) =>
          fs.writeFile(
            path.join(dir, `${id}.md`),
            `---\n{"id":"${id}","summary":"${id}","tags":[]}\n---\n${body}`,
          );
        for (let i = 0; i < 5; i++) await file(`f${i}`, `${i}\n`);
        await file('huge', 'y'.repeat(5000) + '\n');
        const out = JSON.parse((await cli([...g, '--json', 'sync', '--scope', 'user'], home)).stdout).scopes
          .user;
        expect(out.pushed).toBe(3);
        const reasons = out.localOnly.map((l: { id: string; reason: string }) => [l.id, l.reason]);
        expect(reasons).toContainEqual(['huge', 'too_large']);
        expect(reasons.filter(([, r]: string[]) => r === 'plan_note_count')).toHaveLength(2);
        expect(out.localOnly.find((l: { id: string }) => l.id === 'huge').message).toMatch(
          /5001 bytes of body, at most 4096/,
        );
        const status = await cli([...g, 'status'], home);
        expect(status.stdout).toMatch(/stays here \(too_large\): Your own notes: "huge" is larger/);
        expect(status.stdout.match(/stays here \(plan_note_count\)/g)).toHaveLength(2);
        const json = JSON.parse((await cli([...g, '--json', 'status'], home)).stdout);
        const user = json.scopes.find((sc: { scope: string }) => sc.scope === 'user');
        expect(user.localOnly).toEqual(out.localOnly);
      } finally {
        await tight.close();
      }
    },
  );

  it(
    'the fail-safe’s question is saved: memdesk sync --deletes delete|keep in another process acts, once; the next round is clean',
    { timeout: 90_000 },
    async () => {
      const token = await server.token('fail-safe-cli');
      const a = await startDevice('a', server, { token });
      open.push(a);
      for (let i = 0; i < 14; i++) await a.write(`n${i}`, `${i}\n`);
      expectOk(await a.sync());
      const homes = { delete: await tempDir('fs-delete'), keep: await tempDir('fs-keep') };
      const run = (home: string, ...args: string[]) =>
        cli(['--home', home, '--project', home, ...args], home);
      const userNotes = async (home: string) =>
        (await fs.readdir(path.join(home, 'memory', 'user'))).filter((f) => f.endsWith('.md')).sort();
      for (const home of Object.values(homes)) {
        expect((await run(home, 'login', '--origin', server.url, '--token', token)).code).toBe(0);
        await run(home, 'sync', '--scope', 'user');
        expect(await userNotes(home)).toHaveLength(14);
      }
      for (let i = 0; i < 12; i++) await a.remove(`n${i}`);
      // Deleting most notes here asks first too; confirmed, the deletions go out.
      await a.sync();
      expect((await a.engine.status(a.svc)).pendingDeletes).toEqual({ count: 12, total: 14, here: 12 });
      await a.svc.decidePendingDeletes('delete');
      expectOk(await a.sync());
      for (const home of Object.values(homes)) {
        const asked = JSON.parse((await run(home, '--json', 'sync', '--scope', 'user')).stdout).scopes.user;
        expect(asked.error.code).toBe('confirm_deletes');
        expect(await userNotes(home)).toHaveLength(14);
        expect((await run(home, 'status')).stdout).toMatch(
          /waiting for you: 12 of 14 notes would be deleted \(12 by the cloud, 0 here\)/,
        );
      }
      const deleted = JSON.parse(
        (await run(homes.delete, '--json', 'sync', '--scope', 'user', '--deletes', 'delete')).stdout,
      ).scopes.user;
      expect(deleted.pulled.deleted).toBe(12);
      expect(await userNotes(homes.delete)).toEqual(['n12.md', 'n13.md']);
      const kept = JSON.parse(
        (await run(homes.keep, '--json', 'sync', '--scope', 'user', '--deletes', 'keep')).stdout,
      ).scopes.user;
      expect(kept.error).toBeNull();
      expect(kept.pushed).toBe(12);
      for (const home of Object.values(homes)) {
        const next = JSON.parse((await run(home, '--json', 'sync', '--scope', 'user')).stdout).scopes.user;
        expect(next.error).toBeNull();
        expect((await run(home, 'status')).stdout).not.toMatch(/waiting for you/);
      }
      expectOk(await a.sync());
      expect(a.ids()).toHaveLength(14);
    },
  );
});
