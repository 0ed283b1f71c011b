import { promises as fs } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { memdeskChild, type CliRun } from '../support/memdesk-cli.js';
import { cli } from './cli-runner.js';
import { expectOk, startDevice, tempDir, type Device, type TestServer, useTestServer } from './harness.js';

/**
 * A note file this device's process may not read (EACCES) is held, never pushed as a delete. A
 * root process reads any file whatever its mode, so when the tests run as root the device's
 * process runs as an unprivileged user (`setpriv` to nobody, 65534) over a home it owns; otherwise
 * the test's own user is unprivileged already.
 */
let server: TestServer;
const open: Device[] = [];
useTestServer((started) => (server = started), open);

const NOBODY = 65534;
const BODY = 'one\ntwo\nthree\nfour';
const asRoot = process.getuid?.() === 0;

/** The real CLI in a child process, as nobody when this process is root. */
function memdeskUnprivileged(args: string[], home: string): Promise<CliRun> {
  const asUser = asRoot ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups'] : [];
  return memdeskChild(args, { cwd: home, env: { TMPDIR: home }, asUser });
}

async function chownTree(dir: string): Promise<void> {
  if (!asRoot) return;
  await fs.chown(dir, NOBODY, NOBODY);
  for (const e of await fs.readdir(dir, { withFileTypes: true, recursive: true }))
    await fs.chown(path.join(e.parentPath, e.name), NOBODY, NOBODY);
}

it(
  'a note file the process may not read (EACCES, an unprivileged process) is held: no delete reaches the other device; readable again, it syncs',
  { timeout: 180_000 },
  async () => {
    const token = await server.token('eacces');
    const home = await tempDir('eacces');
    const g = ['--home', home, '--project', home];
    expect((await cli([...g, 'login', '--origin', server.url, '--token', token], home)).code).toBe(0);
    const dir = path.join(home, 'memory', 'user');
    await fs.mkdir(dir, { recursive: true });
    const note = (id: string, body: string): string =>
      `---\n{"id":"${id}","summary":"${id}","tags":[]}\n---\n${body}\n`;
    await fs.writeFile(path.join(dir, 'n.md'), note('n', BODY));
    await fs.writeFile(path.join(dir, 'other.md'), note('other', 'other body'));
    await chownTree(home);
    const first = await memdeskUnprivileged([...g, 'sync', '--scope', 'user'], home);
    expect(first.stderr).toBe('');
    expect(first.stdout).toMatch(/pushed 2/);

    const b = await startDevice('b', server, { token });
    open.push(b);
    expectOk(await b.sync());
    expect(b.ids()).toEqual(['n', 'other']);

    // Saved by a tool running as another user, readable by it alone (an edit of its own).
    await fs.writeFile(path.join(dir, 'n.md'), note('n', `${BODY}\nsaved by another user`), { mode: 0o600 });
    await fs.chown(path.join(dir, 'n.md'), asRoot ? 0 : process.getuid!(), 0).catch(() => {});
    await fs.chmod(path.join(dir, 'n.md'), asRoot ? 0o600 : 0o000);
    const denied = await memdeskUnprivileged([...g, 'sync', '--scope', 'user'], home);
    expect(denied.code).toBe(0);
    expect(denied.stdout).toMatch(/pushed 0/);
    expect(denied.stdout).toContain(`held (unreadable): ${path.join(dir, 'n.md')}`);
    expect(denied.stdout).toMatch(/EACCES|permission denied/i);
    expectOk(await b.sync());
    expect(b.get('n')?.body).toBe(`${BODY}\n`);
    // Meanwhile b edits it: nothing is written over the file this device could not read.
    await b.write('n', `${BODY.replace('one', 'ONE from b')}\n`);
    expectOk(await b.sync());
    expect((await memdeskUnprivileged([...g, 'sync', '--scope', 'user'], home)).code).toBe(0);
    expect(await fs.readFile(path.join(dir, 'n.md'), 'utf8')).toBe(note('n', `${BODY}\nsaved by another user`));
    await fs.chmod(path.join(dir, 'n.md'), 0o644);

    // Readable again: the other user's edit and b's merge, nothing is held or deleted anywhere.
    const resumed = await memdeskUnprivileged([...g, 'sync', '--scope', 'user'], home);
    expect(resumed.stdout).not.toContain('held (');
    expectOk(await b.sync());
    expect(b.ids()).toEqual(['n', 'other']);
    const merged = `${BODY.replace('one', 'ONE from b')}\nsaved by another user`;
    expect(b.get('n')?.body).toBe(`${merged}\n`);
    expect(await fs.readFile(path.join(dir, 'n.md'), 'utf8')).toContain(merged);
  },
);
