import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importArchive } from '../../electron/agents/archive/export-import.js';
import { ARCHIVE_LIMITS, readArchive } from '../../electron/agents/archive/zip-format.js';
import { importMnemopi } from '../../electron/agents/mnemopi/import-mnemopi.js';
import { makeHarness, mdFiles, type Harness } from '../agents/harness.js';
import { writeMnemopiDb } from '../agents/mnemopi-fixture.js';
import { craftZip, deflatedZeros } from './zip-craft.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ONE_STEP = 1032 * 1024 + 1; // what one 1 KiB step of deflate input can yield at most

describe('zip bombs', () => {
  it('a 1 MB entry declaring 10 bytes but holding 1 GiB of zeros stops after one step', () => {
    const bomb = craftZip([{ name: 'notes/bomb-1.md', deflated: deflatedZeros(1024), declaredSize: 10 }]);
    expect(bomb.length).toBeLessThan(1.1e6);
    const read = readArchive(bomb);
    expect(read.notes).toEqual([]);
    expect(read.refused).toEqual([
      { entry: 'notes/bomb-1.md', reason: expect.stringMatching(/inflates past its declared 10 bytes/) },
    ]);
    expect(read.inflatedBytes).toBeLessThanOrEqual(10 + ONE_STEP);
  });

  it('many honest-looking entries that lie stop at the archive budget', () => {
    const entries = Array.from({ length: 50 }, (_, i) => ({
      name: `notes/b-${i}.md`,
      deflated: deflatedZeros(8),
      declaredSize: 3 * 1024 * 1024,
    }));
    const read = readArchive(craftZip(entries), { ...ARCHIVE_LIMITS, maxTotalBytes: 16 * 1024 * 1024 });
    expect(read.notes).toEqual([]);
    expect(read.refused.length).toBe(50);
    expect(read.inflatedBytes).toBeLessThanOrEqual(16 * 1024 * 1024 + ONE_STEP);
  });

  it('the app import refuses the bomb, writes nothing and reports the entry', async () => {
    h = await makeHarness();
    const file = path.join(h.tmp, 'bomb.zip');
    await fs.writeFile(
      file,
      craftZip([{ name: 'notes/bomb-1.md', deflated: deflatedZeros(1024), declaredSize: 10 }]),
    );
    const result = await importArchive(h.core, { file, scope: 'user', onCollision: 'skip' });
    expect(result.imported).toEqual([]);
    expect(result.refused).toEqual([{ entry: 'notes/bomb-1.md', reason: expect.stringMatching(/zip bomb/) }]);
    expect(await mdFiles(h.core.user.store!.dir)).toEqual([]);
  });

  it('a cancelled import writes nothing; a read past its budget is stopped', async () => {
    h = await makeHarness();
    const file = path.join(h.tmp, 'big.zip');
    await fs.writeFile(
      file,
      craftZip([{ name: 'notes/z-1.md', deflated: deflatedZeros(64), declaredSize: 10 }]),
    );
    const ctrl = new AbortController();
    const pending = importArchive(
      h.core,
      { file, scope: 'user', onCollision: 'skip' },
      { signal: ctrl.signal },
    );
    ctrl.abort();
    await expect(pending).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/cancelled.*; nothing was imported/),
    });
    await expect(
      importArchive(h.core, { file, scope: 'user', onCollision: 'skip' }, { budgetMs: 1 }),
    ).rejects.toMatchObject({ message: expect.stringMatching(/longer than the 1 ms budget/) });
    expect(await mdFiles(h.core.user.store!.dir)).toEqual([]);
  });
});

describe('Mnemopi banks', () => {
  it('a recursive VIEW named working_memory is refused with a clear reason, under the budget', async () => {
    h = await makeHarness();
    const db = path.join(h.tmp, 'view.db');
    await writeMnemopiDb(
      db,
      [],
      `CREATE VIEW working_memory AS
         WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT 'fact ' || x AS content FROM n;`,
    );
    const result = await importMnemopi(h.core, { path: db, scope: 'user' }, { budgetMs: 20_000 });
    expect(result.banks).toEqual([
      expect.objectContaining({
        status: 'skipped',
        reason: expect.stringMatching(/working_memory is a view, not a table/),
      }),
    ]);
    expect(await mdFiles(h.core.user.store!.dir)).toEqual([]);
  });

  it('rows past the limit are reported, not read; a read past the budget skips every bank', async () => {
    h = await makeHarness();
    const db = path.join(h.tmp, 'many.db');
    await writeMnemopiDb(
      db,
      Array.from({ length: 12 }, (_, i) => ({
        id: `r${i}`,
        content: `Fact number ${i} about the build.`,
        created_at: 1,
      })),
    );
    const limited = await importMnemopi(
      h.core,
      { path: db, scope: 'user' },
      { limits: { maxFileBytes: 1 << 20, maxRows: 5 } },
    );
    expect(limited.imported).toBe(5);
    expect(limited.banks[0]!.problems).toContain('more than 5 rows: only the first 5 were read');
    expect(limited.banks[0]!.rows.map((r) => r.status)).toEqual(Array(5).fill('imported'));
    const tooBig = await importMnemopi(
      h.core,
      { path: db, scope: 'user' },
      { limits: { maxFileBytes: 100, maxRows: 5 } },
    );
    expect(tooBig.banks[0]!.reason).toMatch(/too large/);
    const stopped = await importMnemopi(h.core, { path: db, scope: 'user' }, { budgetMs: 1 });
    expect(stopped.banks[0]).toMatchObject({
      status: 'skipped',
      reason: expect.stringMatching(/longer than the 1 ms budget/),
    });
    expect((await mdFiles(h.core.user.store!.dir)).length).toBe(5);
  });

  it('credentials in metadata_json, source or memory_type are refused per row', async () => {
    h = await makeHarness();
    const db = path.join(h.tmp, 'meta.db');
    await writeMnemopiDb(db, [
      { id: 'ok', content: 'The deploy runs on Fridays.', created_at: 1 },
      {
        id: 'meta',
        content: 'Staging uses the blue cluster.',
        metadata_json: '{"env":"DB_PASSWORD=Tr0ub4dor&3x"}',
        created_at: 1,
      },
      {
        id: 'src',
        content: 'Logs go to the archive bucket.',
        source: 'ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789',
        created_at: 1,
      },
      {
        id: 'type',
        content: 'Builds are cached for a week.',
        memory_type: 'glpat-Ab3dEf6hIj9lMn2pQr5t',
        created_at: 1,
      },
    ]);
    const result = await importMnemopi(h.core, { path: db, scope: 'user' });
    const rows = result.banks[0]!.rows;
    expect(rows.map((r) => [r.row, r.status])).toEqual([
      ['ok', 'imported'],
      ['meta', 'skipped'],
      ['src', 'skipped'],
      ['type', 'skipped'],
    ]);
    const written = await Promise.all(
      (await mdFiles(h.core.user.store!.dir)).map((n) =>
        fs.readFile(path.join(h!.core.user.store!.dir, n), 'utf8'),
      ),
    );
    expect(written.join('\n')).not.toMatch(/Tr0ub4dor|ghp_|glpat-/);
  });
});
