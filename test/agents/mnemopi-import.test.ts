import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseNote } from '../../shared/note-format.js';
import { makeHarness, mdFiles, type Harness } from './harness.js';
import { writeMnemopiDb } from './mnemopi-fixture.js';
import { runMemdesk } from './run-cli.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const userDir = (x: Harness) => path.join(x.home, 'memory', 'user');

async function buildDataDir(root: string): Promise<void> {
  await writeMnemopiDb(path.join(root, 'mnemopi.db'), [
    {
      id: 'w1',
      content: 'The user prefers short commit messages in English.',
      importance: 0.75,
      source: 'coding-agent-retain',
      memory_type: 'fact',
      veracity: 'tool',
      metadata_json: JSON.stringify({
        session_id: 's-1',
        cwd: '/home/u/app',
        context: 'commit review',
        tool: 'retain',
      }),
      created_at: '2026-02-03 04:05:06',
    },
    { id: 'w2', content: '   ', created_at: '2026-02-03 04:05:06' },
    { id: 'w3', content: 'Deploy with token ghp_abcdefghijklmnopqrstuvwxyz0123456789 in CI', created_at: 1 },
  ]);
  await writeMnemopiDb(path.join(root, 'banks', 'alpha', 'mnemopi.db'), [
    {
      id: 'a1',
      content: 'Alpha service listens on port 8080.',
      memory_type: 'episode',
      source: 'coding-agent-transcript',
      importance: 0.65,
      created_at: 1767000000,
    },
    { id: 'a2', content: 'Alpha uses Postgres 16.', created_at: 1767000001000 },
  ]);
  await fs.mkdir(path.join(root, 'banks', 'beta'), { recursive: true });
  await fs.mkdir(path.join(root, 'banks', 'corrupt'), { recursive: true });
  await fs.writeFile(
    path.join(root, 'banks', 'corrupt', 'mnemopi.db'),
    'SQLite format 3\0' + 'garbage'.repeat(100),
  );
  await writeMnemopiDb(path.join(root, 'banks', 'gamma.db'), [
    { id: 'g1', content: 'Gamma is deprecated since March.', created_at: 2 },
  ]);
}

describe('import mnemopi', { timeout: 180_000 }, () => {
  it('a data directory: every bank reported; missing and corrupt ones skipped, not fatal; read-only', async () => {
    h = await makeHarness();
    const data = path.join(h.tmp, 'mnemopi-data');
    await buildDataDir(data);
    const mainDb = path.join(data, 'mnemopi.db');
    const before = await fs.readFile(mainDb);
    const mtime = (await fs.stat(mainDb)).mtimeMs;

    const out = await h.handlers['agents.importMnemopi']({ path: data, scope: 'user' });
    const byBank = Object.fromEntries(out.banks.map((b) => [b.bank, b]));
    expect(Object.keys(byBank).sort()).toEqual(['alpha', 'beta', 'corrupt', 'default', 'gamma']);
    expect(byBank.default).toMatchObject({ status: 'imported', imported: 1, skippedRows: 2 });
    expect(byBank.default?.problems.join('\n')).toMatch(/row w2: empty content/);
    expect(byBank.default?.problems.join('\n')).toMatch(
      /row w3: the \w+ looks like it contains a GitHub token/i,
    );
    expect(byBank.alpha).toMatchObject({ status: 'imported', imported: 2 });
    expect(byBank.gamma).toMatchObject({ status: 'imported', imported: 1 });
    expect(byBank.beta).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/missing/) });
    expect(byBank.corrupt).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/corrupt/) });
    expect(out.imported).toBe(4);
    expect(Buffer.compare(await fs.readFile(mainDb), before)).toBe(0);
    expect((await fs.stat(mainDb)).mtimeMs).toBe(mtime);

    const files = await mdFiles(userDir(h));
    expect(files).toHaveLength(4);
    const notes = await Promise.all(
      files.map(async (f) => parseNote(await fs.readFile(path.join(userDir(h!), f), 'utf8'))),
    );
    const pref = notes.find((n) => n.ok && n.note.summary.startsWith('The user prefers'));
    expect(pref?.ok && pref.note).toMatchObject({
      type: 'user',
      tags: ['mnemopi', 'memory-type:fact', 'source:coding-agent-retain', 'importance:0.75'],
      body: 'The user prefers short commit messages in English.\n\nContext: commit review\n',
      createdAt: Date.UTC(2026, 1, 3, 4, 5, 6),
      extra: {
        mnemopi: {
          bank: 'default',
          row: 'w1',
          veracity: 'tool',
          metadata: { session_id: 's-1', cwd: '/home/u/app', context: 'commit review', tool: 'retain' },
        },
      },
    });
    const alpha = notes.find((n) => n.ok && n.note.summary.startsWith('Alpha service'));
    expect(alpha?.ok && alpha.note.createdAt).toBe(1767000000 * 1000);
    expect(notes.every((n) => n.ok && !n.note.body.includes('ghp_'))).toBe(true);

    // A second import adds nothing: identical notes are counted as skipped rows.
    const again = await h.handlers['agents.importMnemopi']({ path: data, scope: 'user' });
    expect(again.imported).toBe(0);
    expect(again.banks.find((b) => b.bank === 'alpha')?.skippedRows).toBe(2);
    expect(await mdFiles(userDir(h))).toHaveLength(4);
  });

  it('at most 64 sibling banks are scanned; the rest are reported as skipped', async () => {
    h = await makeHarness();
    const data = path.join(h.tmp, 'many');
    const template = path.join(h.tmp, 'one.db');
    await writeMnemopiDb(template, [{ id: 'x', content: 'Shared fact in every bank.', created_at: 1 }]);
    for (let i = 0; i < 66; i++) {
      const dir = path.join(data, 'banks', `bank-${String(i).padStart(2, '0')}`);
      await fs.mkdir(dir, { recursive: true });
      await fs.copyFile(template, path.join(dir, 'mnemopi.db'));
    }
    const out = await h.handlers['agents.importMnemopi']({ path: data, scope: 'user' });
    expect(out.banks).toHaveLength(66);
    expect(out.banks.filter((b) => b.status === 'imported')).toHaveLength(64);
    expect(out.banks.slice(64).map((b) => [b.bank, b.status, b.reason])).toEqual([
      ['bank-64', 'skipped', 'more than 64 banks under banks/; this one was not scanned'],
      ['bank-65', 'skipped', 'more than 64 banks under banks/; this one was not scanned'],
    ]);
    // The same fact in 64 banks becomes one note (the bank name lives in the frontmatter, not the content).
    expect(out.imported).toBe(1);
  });

  it('the CLI: a single file, and a missing path reported but not fatal', async () => {
    h = await makeHarness();
    const db = path.join(h.tmp, 'single.db');
    await writeMnemopiDb(db, [{ id: 's1', content: 'Single-file bank fact.', created_at: 3 }]);
    const home = path.join(h.tmp, 'cli-home');
    const ok = await runMemdesk(['import', 'mnemopi', db], { cwd: h.tmp, home });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/default: imported 1, skipped 0/);
    expect(ok.stdout).toMatch(/1 note imported into the user scope/);

    const missing = await runMemdesk(['--json', 'import', 'mnemopi', path.join(h.tmp, 'nowhere.db')], {
      cwd: h.tmp,
      home,
    });
    expect(missing.code).toBe(0);
    const m = JSON.parse(missing.stdout) as {
      banks: Array<{ status: string; reason: string }>;
      imported: number;
    };
    expect(m.imported).toBe(0);
    expect(m.banks[0]).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/missing/) });
    expect(await mdFiles(path.join(home, 'memory', 'user'))).toHaveLength(1);
  });
});
