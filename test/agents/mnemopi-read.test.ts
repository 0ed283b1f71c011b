import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapMnemopiRow } from '../../electron/agents/mnemopi/map-row.js';
import { readMnemopiBank, toEpochMs } from '../../electron/agents/mnemopi/read-bank.js';
import { writeMnemopiDb } from './mnemopi-fixture.js';
import { tempDir } from '../support/temp-dir.js';

let tmp: string;
beforeAll(async () => {
  tmp = await tempDir('mnemopi-read');
});
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('Mnemopi bank reader (read-only, sql.js)', () => {
  it('reads the documented columns and never changes the file', async () => {
    const file = path.join(tmp, 'mnemopi.db');
    await writeMnemopiDb(file, [
      {
        id: 'm1',
        content: 'The user prefers pnpm over npm.',
        importance: 0.75,
        source: 'coding-agent-retain',
        memory_type: 'fact',
        veracity: 'tool',
        metadata_json: JSON.stringify({
          session_id: 's1',
          cwd: '/work/app',
          context: 'setup chat',
          tool: 'retain',
        }),
        created_at: '2026-01-02 03:04:05',
      },
      { id: 'm2', content: 'Deploys freeze on Friday', created_at: 1767000000, metadata_json: '{not json' },
    ]);
    const before = await fs.readFile(file);
    const stat = await fs.stat(file);
    const result = await readMnemopiBank(file);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.rows).toHaveLength(2);
    expect(result.rows[0]).toMatchObject({
      rowId: 'm1',
      importance: 0.75,
      source: 'coding-agent-retain',
      memoryType: 'fact',
      veracity: 'tool',
      createdAt: Date.UTC(2026, 0, 2, 3, 4, 5),
    });
    expect(result.rows[0]?.metadata?.cwd).toBe('/work/app');
    expect(result.rows[1]?.createdAt).toBe(1767000000 * 1000);
    expect(result.problems).toEqual(['row m2: metadata_json is not valid JSON; ignored']);
    expect(Buffer.compare(before, await fs.readFile(file))).toBe(0);
    expect((await fs.stat(file)).mtimeMs).toBe(stat.mtimeMs);
  });

  it('reports missing, non-SQLite, truncated and table-less databases instead of throwing', async () => {
    expect(await readMnemopiBank(path.join(tmp, 'nope.db'))).toEqual({
      ok: false,
      reason: expect.stringContaining('missing'),
    });
    const text = path.join(tmp, 'text.db');
    await fs.writeFile(text, 'hello, I am not a database'.repeat(10));
    expect(await readMnemopiBank(text)).toEqual({
      ok: false,
      reason: expect.stringContaining('not a SQLite database'),
    });

    const good = path.join(tmp, 'good.db');
    await writeMnemopiDb(
      good,
      Array.from({ length: 200 }, (_, i) => ({
        id: `r${i}`,
        content: `fact number ${i} `.repeat(20),
        created_at: 1,
      })),
    );
    const truncated = path.join(tmp, 'truncated.db');
    const bytes = await fs.readFile(good);
    await fs.writeFile(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const t = await readMnemopiBank(truncated);
    expect(t.ok).toBe(false);
    if (!t.ok) expect(t.reason).toMatch(/corrupt/);

    const other = path.join(tmp, 'other.db');
    await writeMnemopiDb(
      other,
      [],
      'CREATE TABLE working_memory_x (a TEXT); CREATE TABLE working_memory (id TEXT, content TEXT, created_at TEXT);',
    );
    expect((await readMnemopiBank(other)).ok).toBe(true);
    const noTable = path.join(tmp, 'notable.db');
    await writeMnemopiDb(noTable, [], 'CREATE TABLE episodic_events (id INTEGER, summary TEXT);');
    expect(await readMnemopiBank(noTable)).toEqual({
      ok: false,
      reason: 'no working_memory table: not a Mnemopi bank',
    });
    const noContent = path.join(tmp, 'nocontent.db');
    await writeMnemopiDb(noContent, [], 'CREATE TABLE working_memory (key TEXT, value TEXT);');
    expect(await readMnemopiBank(noContent)).toEqual({
      ok: false,
      reason: 'the working_memory table has no content column',
    });
    const dir = path.join(tmp, 'a-directory.db');
    await fs.mkdir(dir);
    expect((await readMnemopiBank(dir)).ok).toBe(false);
  });

  it('warns about un-checkpointed WAL changes', async () => {
    const file = path.join(tmp, 'wal.db');
    await writeMnemopiDb(file, [{ id: 'w', content: 'x', created_at: 1 }]);
    await fs.writeFile(`${file}-wal`, 'pending');
    const result = await readMnemopiBank(file);
    expect(result.ok && result.problems[0]).toMatch(/-wal holds changes/);
  });

  it('maps a row to a note: summary, type, tags, context line, provenance kept in frontmatter', () => {
    const mapped = mapMnemopiRow(
      {
        rowId: 'm1',
        content: 'The user prefers pnpm over npm. Use it everywhere.',
        importance: 0.75,
        source: 'coding-agent-retain',
        memoryType: 'fact',
        veracity: 'tool',
        metadata: { context: 'setup chat', cwd: '/w' },
        createdAt: 1000,
        updatedAt: null,
      },
      'default',
      5000,
    );
    expect(mapped).toEqual({
      draft: {
        summary: 'The user prefers pnpm over npm.',
        type: 'user',
        tags: ['mnemopi', 'memory-type:fact', 'source:coding-agent-retain', 'importance:0.75'],
        body: 'The user prefers pnpm over npm. Use it everywhere.\n\nContext: setup chat\n',
      },
      extra: {
        mnemopi: {
          bank: 'default',
          row: 'm1',
          veracity: 'tool',
          metadata: { context: 'setup chat', cwd: '/w' },
        },
      },
      createdAt: 1000,
      updatedAt: 1000,
    });
    expect(
      mapMnemopiRow(
        {
          rowId: 'e',
          content: '  ',
          importance: null,
          source: null,
          memoryType: null,
          veracity: null,
          metadata: null,
          createdAt: null,
          updatedAt: null,
        },
        'b',
        1,
      ),
    ).toEqual({
      refused: 'row e: empty content',
    });
  });

  it('parses the timestamp forms SQLite holds', () => {
    expect(toEpochMs('2026-01-02T03:04:05Z')).toBe(Date.UTC(2026, 0, 2, 3, 4, 5));
    expect(toEpochMs(1767000000123)).toBe(1767000000123);
    expect(toEpochMs('1767000000')).toBe(1767000000000);
    expect(toEpochMs('garbage')).toBeNull();
    expect(toEpochMs(null)).toBeNull();
  });
});
