import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiInput, ApiOutput } from '../../shared/api.js';
import { invokeApi } from '../../electron/api/dispatch.js';
import { createAppRoot } from '../../electron/app/app-root.js';
import type { OpenProject } from '../../electron/app/open-project.js';
import { defaultSeedDirs, generatedNotes, seedGeneratedNotes } from '../../electron/demo/seed.js';
import { tempDir } from '../support/temp-dir.js';

/**
 * notes.list a page at a time, through the real API over a temp home with 300 generated notes
 * (150 per scope): pages joined are the full list in the same order, for every sort and filter;
 * a note written between two pages neither repeats nor shifts a note; a foreign cursor is refused.
 */
let tmp: string;
let opened: OpenProject;
let call: <M extends 'notes.list' | 'notes.tags' | 'notes.search' | 'notes.remember'>(
  method: M,
  input: Partial<ApiInput<M>>,
) => Promise<ApiOutput<M>>;

beforeAll(async () => {
  tmp = await tempDir('paging');
  const home = path.join(tmp, 'home');
  const project = path.join(tmp, 'project');
  const dirs = defaultSeedDirs(home, project);
  await seedGeneratedNotes(dirs.projectMemoryDir, generatedNotes(150, 'project'));
  await seedGeneratedNotes(dirs.userMemoryDir, generatedNotes(150, 'user'));
  opened = await createAppRoot({ home, env: {} }).open({ projectRoot: project, cwd: project });
  call = (method, input) => invokeApi(opened.handlers, method, input) as never;
}, 60_000);

afterAll(async () => {
  await opened?.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

const key = (n: { scope: string; id: string }) => `${n.scope}:${n.id}`;

async function allPages(input: Partial<ApiInput<'notes.list'>>, limit: number) {
  const out: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await call('notes.list', { ...input, limit, ...(cursor ? { cursor } : {}) });
    expect(page.notes.length).toBeLessThanOrEqual(limit);
    out.push(...page.notes.map(key));
    cursor = page.nextCursor ?? undefined;
    pages++;
  } while (cursor);
  return { keys: out, pages };
}

describe('notes.list paging', () => {
  it('pages joined equal the whole list, for each sort and filter', async () => {
    const cases: Array<Partial<ApiInput<'notes.list'>>> = [
      { scope: 'both' },
      { scope: 'both', sort: 'created' },
      { scope: 'both', sort: 'summary' },
      { scope: 'project', type: 'feedback' },
      { scope: 'both', type: 'none' },
      { scope: 'both', tag: 'group-1' },
      { scope: 'user', sort: 'summary', tag: 'GROUP-2' },
    ];
    for (const input of cases) {
      const whole = await call('notes.list', input);
      expect(whole.nextCursor).toBeNull();
      expect(whole.total).toBe(whole.notes.length);
      const paged = await allPages(input, 37);
      expect(paged.keys, JSON.stringify(input)).toEqual(whole.notes.map(key));
      expect(new Set(paged.keys).size).toBe(paged.keys.length);
      expect(paged.pages).toBe(Math.max(1, Math.ceil(whole.total / 37)));
    }
    // The filters do filter: group-1 is a prefix of group-1x too; untyped notes are none here.
    const tagged = await call('notes.list', { scope: 'both', tag: 'group-1' });
    expect(tagged.notes.every((n) => n.tags.some((t) => t.startsWith('group-1')))).toBe(true);
    expect(tagged.total).toBeGreaterThan(0);
    expect(tagged.total).toBeLessThan(300);
    expect((await call('notes.list', { scope: 'both' })).total).toBe(300);
  });

  it('a note written between two pages does not repeat or shift the next page', async () => {
    const first = await call('notes.list', { scope: 'both', limit: 50 });
    await call('notes.remember', { summary: 'Written between two pages', body: 'x', scope: 'project' });
    const second = await call('notes.list', { scope: 'both', limit: 50, cursor: first.nextCursor! });
    const before = await call('notes.list', { scope: 'both' });
    const firstKeys = first.notes.map(key);
    const expected = before.notes.map(key).filter((k) => !k.includes('written-between'));
    expect([...firstKeys, ...second.notes.map(key)]).toEqual(expected.slice(0, 100));
    expect(before.notes[0]!.summary).toBe('Written between two pages');
    expect(second.total).toBe(301);
  });

  it('refuses a cursor it did not give out', async () => {
    await expect(
      call('notes.list', { scope: 'both', limit: 10, cursor: 'not-a-cursor' }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
  });

  it('counts tags for the filter suggestions; the page search carries list fields, an exact id first', async () => {
    const { tags } = await call('notes.tags', { scope: 'both' });
    const whole = await call('notes.list', { scope: 'both' });
    const group0 = whole.notes.filter((n) => n.tags.includes('group-0')).length;
    expect(tags.find((t) => t.tag === 'group-0')?.count).toBe(group0);
    expect(tags[0]!.count).toBeGreaterThanOrEqual(tags.at(-1)!.count);

    const id = whole.notes.find((n) => n.scope === 'user')!.id;
    const plain = await call('notes.search', { query: id, limit: 5 });
    expect(plain.notes[0]).not.toHaveProperty('tags');
    const listing = await call('notes.search', { query: id, limit: 5, listing: true });
    expect(listing.notes[0]).toMatchObject({ id, scope: 'user' });
    expect(listing.notes[0]!.tags!.length).toBeGreaterThan(0);
    expect(listing.notes[0]!.updatedAt).toBeGreaterThan(0);
  });
});
