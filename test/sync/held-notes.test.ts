import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from './cli-runner.js';
import { expectOk, startDevice, tempDir, type Device, type TestServer, useTestServer } from './harness.js';

let server: TestServer;
let n = 0;
const open: Device[] = [];
useTestServer((started) => (server = started), open);

/** Two devices of one account, both holding the notes `ids` (synced). */
async function synced(ids: string[]): Promise<[Device, Device]> {
  const token = await server.token(`held-${++n}`);
  const a = await startDevice('a', server, { token });
  const b = await startDevice('b', server, { token });
  open.push(a, b);
  for (const id of ids) await a.write(id, `${id} line one\n${id} line two\n`);
  expectOk(await a.sync());
  expectOk(await b.sync());
  expect(b.ids()).toEqual([...ids].sort());
  return [a, b];
}

function file(d: Device, id: string): string {
  return path.join(d.user.store!.dir, `${id}.md`);
}

/** After a round on `a` and one on `b`, b still has its good copy and a's status names the file. */
async function expectHeld(a: Device, b: Device, id: string, reason: string): Promise<void> {
  expectOk(await a.sync());
  expectOk(await b.sync());
  expect(b.get(id)?.body).toBe(`${id} line one\n${id} line two\n`);
  const status = await a.engine.status(a.svc);
  expect(status.held.map((h) => [h.id, h.reason])).toContainEqual([id, reason]);
  expect(status.held.find((h) => h.id === id)?.message).toContain(file(a, id));
  expect(a.svc.lastRound?.held.map((h) => h.id)).toContain(id);
}

describe('a note that is not loaded is not a deleted note', () => {
  it('a slip in the JSON frontmatter: no delete reaches the other device; fixing the file resumes sync', async () => {
    const [a, b] = await synced(['n', 'other']);
    const good = await fs.readFile(file(a, 'n'), 'utf8');
    await fs.writeFile(file(a, 'n'), good.replace('"summary"', '"summary" x'));
    await expectHeld(a, b, 'n', 'unreadable');
    // Meanwhile b edits it: the edit is not written over the file a could not read.
    await b.write('n', 'n line one\nn line two\nfrom b\n');
    expectOk(await b.sync());
    expectOk(await a.sync());
    expect(await fs.readFile(file(a, 'n'), 'utf8')).toBe(good.replace('"summary"', '"summary" x'));
    // Fixed by hand (with an edit of its own): it merges with b's edit and syncs again.
    await fs.writeFile(file(a, 'n'), good.replace('n line one', 'n line ONE'));
    expectOk(await a.sync());
    expectOk(await b.sync());
    for (const d of [a, b]) expect(d.get('n')?.body).toBe('n line ONE\nn line two\nfrom b\n');
    expect((await a.engine.status(a.svc)).held).toEqual([]);
  });

  it('a body over memory.maxNoteBytes written by hand is held, not deleted', async () => {
    const [a, b] = await synced(['n']);
    const text = await fs.readFile(file(a, 'n'), 'utf8');
    await fs.writeFile(file(a, 'n'), text + 'x'.repeat(140_000) + '\n');
    await expectHeld(a, b, 'n', 'too_large');
  });

  it('a case twin added by hand: the synced note is held, the twin is not uploaded', async () => {
    const [a, b] = await synced(['note']);
    const text = await fs.readFile(file(a, 'note'), 'utf8');
    // "Note.md" sorts first, so it loads and the synced "note.md" becomes the twin.
    await fs.writeFile(file(a, 'Note'), text.replace('"id":"note"', '"id":"Note"'));
    await expectHeld(a, b, 'note', 'case_twin');
    expect(b.ids()).toEqual(['note']);
  });

  it('a symbolic link is never followed, read, synced or deleted', async () => {
    const [a, b] = await synced(['n']);
    const outside = path.join(a.home, 'secret.txt');
    await fs.writeFile(outside, 'do not upload\n');
    await fs.rm(file(a, 'n'));
    await fs.symlink(outside, file(a, 'n'));
    await fs.symlink(outside, file(a, 'leak'));
    await expectHeld(a, b, 'n', 'symlink');
    expect(b.ids()).toEqual(['n']);
    expect(server.requests.join('\n')).not.toContain('do not upload');
    // Neither read nor replaced by the store: a write or delete of it is refused, the link stays.
    await expect(a.write('leak', 'x\n')).rejects.toThrow(/symbolic link/);
    await expect(a.remove('leak')).rejects.toThrow(/symbolic link/);
    expect((await fs.lstat(file(a, 'leak'))).isSymbolicLink()).toBe(true);
    expect(await fs.readFile(outside, 'utf8')).toBe('do not upload\n');
  });

  it('a lowered memory.maxNotes (a config from git pull): the skipped oldest notes are held, not deleted everywhere', async () => {
    const ids = ['n1', 'n2', 'n3', 'n4'];
    const [a, b] = await synced(ids);
    const t = Date.now() / 1000;
    for (const [i, id] of ids.entries()) await fs.utimes(file(a, id), t - 1000 + i, t - 1000 + i);
    await a.close();
    await fs.writeFile(path.join(a.home, 'config.json'), JSON.stringify({ memory: { maxNotes: 2 } }));
    const token = await server.token(`held-${n}`);
    const a2 = await startDevice('a2', server, { token, home: a.home });
    open.push(a2);
    expect(a2.ids()).toEqual(['n3', 'n4']);
    expectOk(await a2.sync());
    expectOk(await b.sync());
    expect(b.ids()).toEqual(ids);
    const held = (await a2.engine.status(a2.svc)).held;
    expect(held.map((h) => [h.id, h.reason])).toEqual([
      ['n1', 'over_note_limit'],
      ['n2', 'over_note_limit'],
    ]);
  });

  it('memdesk sync and memdesk status name the held file and why', { timeout: 60_000 }, async () => {
    const home = await tempDir('held-cli');
    const g = ['--home', home, '--project', home];
    const token = await server.token(`held-${++n}`);
    expect((await cli([...g, 'login', '--origin', server.url, '--token', token], home)).code).toBe(0);
    const dir = path.join(home, 'memory', 'user');
    await fs.mkdir(dir, { recursive: true });
    const good = '---\n{"id":"n","summary":"n","tags":[]}\n---\nbody\n';
    await fs.writeFile(path.join(dir, 'n.md'), good);
    expect((await cli([...g, 'sync', '--scope', 'user'], home)).stdout).toMatch(/pushed 1/);
    await fs.writeFile(path.join(dir, 'n.md'), good.replace('"tags":[]', '"tags":[,]'));
    const sync = await cli([...g, 'sync', '--scope', 'user'], home);
    expect(sync.stdout).toMatch(/pushed 0/);
    expect(sync.stdout).toContain(`held (unreadable): ${path.join(dir, 'n.md')}`);
    const json = JSON.parse((await cli([...g, '--json', 'sync', '--scope', 'user'], home)).stdout);
    expect(json.scopes.user.held.map((h: { id: string; reason: string }) => [h.id, h.reason])).toEqual([
      ['n', 'unreadable'],
    ]);
    const status = await cli([...g, 'status'], home);
    expect(status.stdout).toContain(`held (unreadable): ${path.join(dir, 'n.md')}`);
  });
});
