import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memdeskChild } from '../support/memdesk-cli.js';
import { cli } from './cli-runner.js';
import { startTestServer, tempDir, type TestServer } from './harness.js';

/** The real CLI in a child process. */
const memdesk = (args: string[], cwd: string) => memdeskChild(args, { cwd });

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function project(name: string): Promise<{ home: string; root: string; g: string[] }> {
  const home = await tempDir(`cli-home-${name}`);
  const root = await tempDir(`cli-root-${name}`);
  return { home, root, g: ['--home', home, '--project', root] };
}

describe('memdesk sync commands', () => {
  it(
    'login, sync --json (the documented shape) in a real child process; sync off blocks, sync on, status',
    { timeout: 120_000 },
    async () => {
      const { root, g } = await project('child');
      const token = await server.token('cli-child');
      expect((await cli([...g, 'project', 'init'], root)).code).toBe(0);
      expect(
        (
          await cli(
            [...g, 'remember', '--summary', 'from the cli', '--type', 'project', '--body', 'hello'],
            root,
          )
        ).code,
      ).toBe(0);
      const login = await cli([...g, 'login', '--origin', server.url, '--token', token], root);
      expect(login.code, login.stderr).toBe(0);
      const sync = await memdesk([...g, '--json', 'sync'], root);
      expect(sync.code, sync.stderr).toBe(0);
      const out = JSON.parse(sync.stdout);
      expect(out).toEqual({
        scopes: {
          project: {
            pulled: { added: 0, changed: 0, deleted: 0 },
            pushed: 1,
            conflicts: [],
            error: null,
            notices: [],
            held: [],
            localOnly: [],
            historyReset: false,
          },
          user: {
            pulled: { added: 0, changed: 0, deleted: 0 },
            pushed: 0,
            conflicts: [],
            error: null,
            notices: [],
            held: [],
            localOnly: [],
            historyReset: false,
          },
        },
      });
      expect((await cli([...g, 'sync', 'off'], root)).code).toBe(0);
      const before = server.requests.length;
      const off = JSON.parse((await cli([...g, '--json', 'sync'], root)).stdout);
      expect(off.scopes.project.error.code).toBe('sync_off');
      expect(server.requests.length).toBe(before);
      const status = await cli([...g, 'sync', 'status'], root);
      expect(status.stdout).toMatch(/cloud sync: off/);
      // `memdesk status` (issue 5) is the same command.
      const plain = await cli([...g, 'status'], root);
      expect(plain.code, plain.stderr).toBe(0);
      expect(plain.stdout).toBe(status.stdout);
      expect(plain.stdout).toMatch(
        /Your own notes: off; last synced \S+; (last pull \+\d+ ~\d+ -\d+|nothing pulled yet)/,
      );
      const json = JSON.parse((await cli([...g, '--json', 'status'], root)).stdout);
      expect(json.scopes.map((x: { scope: string; enabled: boolean }) => [x.scope, x.enabled])).toEqual([
        ['project', false],
        ['user', false],
      ]);
      expect((await cli([...g, 'sync', 'on'], root)).code).toBe(0);
    },
  );

  it(
    'conflicts and resolve --keep / --merged-file; bad input is refused and nothing is lost',
    { timeout: 60_000 },
    async () => {
      const token = await server.token('cli-conflicts');
      const a = await project('a');
      const b = await project('b');
      for (const p of [a, b]) {
        await fs.mkdir(path.join(p.root, '.oharness'), { recursive: true });
        await fs.writeFile(
          path.join(p.root, '.oharness', 'project.json'),
          JSON.stringify({ id: 'cli-shared-project' }),
        );
        expect((await cli([...p.g, 'login', '--origin', server.url, '--token', token], p.root)).code).toBe(0);
      }
      const note = (body: string) =>
        `---\n{"id":"shared","summary":"shared","type":"project","tags":[]}\n---\n${body}`;
      await fs.mkdir(path.join(a.root, 'MEMORY'), { recursive: true });
      await fs.writeFile(path.join(a.root, 'MEMORY', 'shared.md'), note('one\ntwo\n'));
      expect((await cli([...a.g, 'sync'], a.root)).code).toBe(0);
      expect((await cli([...b.g, 'sync'], b.root)).code).toBe(0);
      await fs.writeFile(path.join(a.root, 'MEMORY', 'shared.md'), note('one from a\ntwo\n'));
      await fs.mkdir(path.join(b.root, 'MEMORY'), { recursive: true });
      await fs.writeFile(path.join(b.root, 'MEMORY', 'shared.md'), note('one from b\ntwo\n'));
      await cli([...a.g, 'sync'], a.root);
      const synced = JSON.parse((await cli([...b.g, '--json', 'sync'], b.root)).stdout);
      expect(synced.scopes.project.conflicts).toEqual(['shared']);
      const list = await cli([...b.g, 'conflicts'], b.root);
      expect(list.stdout).toMatch(/shared \[project\] both_changed/);

      // Bad input: both options, an unknown side, a file with markers left in.
      expect((await cli([...b.g, 'resolve', 'shared'], b.root)).code).toBe(2);
      const wrong = await cli([...b.g, 'resolve', 'shared', '--keep', 'mine'], b.root);
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toMatch(/--keep must be local, cloud or both/);
      const draft = path.join(b.root, 'draft.md');
      await fs.writeFile(
        draft,
        '<<<<<<< this computer\none from b\n=======\none from a\n>>>>>>> cloud\ntwo\n',
      );
      const markers = await cli([...b.g, 'resolve', 'shared', '--merged-file', draft], b.root);
      expect(markers.code).toBe(2);
      expect(markers.stderr).toMatch(/conflict markers/);
      expect(await fs.readFile(path.join(b.root, 'MEMORY', 'shared.md'), 'utf8')).toContain('one from b');

      await fs.writeFile(draft, 'one from a and b\ntwo\n');
      const resolved = await cli([...b.g, 'resolve', 'shared', '--merged-file', draft], b.root);
      expect(resolved.code, resolved.stderr).toBe(0);
      await cli([...b.g, 'sync'], b.root);
      await cli([...a.g, 'sync'], a.root);
      expect(await fs.readFile(path.join(a.root, 'MEMORY', 'shared.md'), 'utf8')).toContain(
        'one from a and b\ntwo\n',
      );
      expect((await cli([...b.g, 'conflicts'], b.root)).stdout).toMatch(/no conflicts/);
    },
  );
});
