import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../sync/cli-runner.js';
import { startTestServer, tempDir, type TestServer } from '../sync/harness.js';

/** The `memdesk encryption` commands (the CLI contract), with production scrypt costs. */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function home(name: string, token: string): Promise<{ g: string[]; root: string }> {
  const h = await tempDir(`e2ee-cli-${name}`);
  const root = await tempDir(`e2ee-cli-root-${name}`);
  const g = ['--home', h, '--project', root];
  expect((await cli([...g, 'project', 'init'], root)).code).toBe(0);
  expect((await cli([...g, 'login', '--origin', server.url, '--token', token], root)).code).toBe(0);
  return { g, root };
}

async function secretFile(dir: string, name: string, text: string): Promise<string> {
  const file = path.join(dir, name);
  await fs.writeFile(file, text + '\n');
  return file;
}

describe('memdesk encryption', () => {
  it(
    'on, a wrong unlock exits 1 and stores nothing, unlock, status, change-passphrase',
    { timeout: 240_000 },
    async () => {
      const token = await server.token('cli-e2ee');
      const a = await home('a', token);
      const remember = await cli(
        [
          ...a.g,
          'remember',
          '--scope',
          'user',
          '--summary',
          'Lighthouse keeper rota',
          '--body',
          'Tuesdays: Ingrid.',
        ],
        a.root,
      );
      expect(remember.code).toBe(0);
      const pass = await secretFile(a.root, 'pass.txt', 'correct horse battery');
      const on = await cli([...a.g, 'encryption', 'on', '--passphrase-file', pass], a.root);
      // Progress on stderr, live as each phase starts and each commit lands; stdout is the answer.
      expect(on.stderr.split('\n').filter(Boolean)).toEqual([
        'syncing every scope first…',
        'publishing the keyring…',
        'uploading sealed: 0 of 1 notes',
        'uploading sealed: 1 of 1 notes',
        'removing the unencrypted copy from the server…',
      ]);
      expect(on.code).toBe(0);
      expect(on.stdout).toMatch(/RECOVERY CODE[^\n]*\n {2}[0-9A-Z]{4}(-[0-9A-Z]{4}){7}/);
      expect(on.stdout).toMatch(/end-to-end encryption is on/);

      const b = await home('b', token);
      const wrong = await secretFile(b.root, 'wrong.txt', 'wrong horse battery');
      const refused = await cli([...b.g, 'encryption', 'unlock', '--passphrase-file', wrong], b.root);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/passphrase does not unlock/);
      const locked = await cli([...b.g, 'encryption', 'status', '--json'], b.root);
      expect(JSON.parse(locked.stdout)).toMatchObject({ accountEncrypted: true, unlocked: false });

      const right = await secretFile(b.root, 'pass.txt', 'correct horse battery');
      const unlock = await cli([...b.g, 'encryption', 'unlock', '--passphrase-file', right], b.root);
      expect(unlock.code).toBe(0);
      const list = await cli([...b.g, 'list', '--scope', 'user', '--json'], b.root);
      expect(JSON.parse(list.stdout).notes.map((n: { summary: string }) => n.summary)).toContain(
        'Lighthouse keeper rota',
      );

      const next = await secretFile(a.root, 'next.txt', 'staple tuned anew');
      const change = await cli(
        [...a.g, 'encryption', 'change-passphrase', '--passphrase-file', pass, '--new-passphrase-file', next],
        a.root,
      );
      expect(change.code).toBe(0);
      const status = await cli([...a.g, 'encryption', 'status'], a.root);
      expect(status.stdout).toMatch(/end-to-end encryption: on/);
      expect(status.stdout).toMatch(/this device: unlocked/);
    },
  );
});
