import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppRoot } from '../../electron/app/app-root.js';
import { invokeApi } from '../../electron/api/dispatch.js';
import { createHandlers } from '../../electron/api/handlers.js';
import { runMemdesk } from './run-cli.js';
import { tempDir } from '../support/temp-dir.js';

/**
 * Project-true retain (seed 000): a fact retained in project A with the default per-project-tagged
 * scoping lives in the user scope tagged project:alpha. Project B's recall, search and index never
 * show it; untagged user notes stay visible in both.
 */
let tmp: string;
let home: string;
const roots: Record<string, string> = {};

async function inProject(name: string) {
  const { ctx } = await createAppRoot({ home, env: process.env }).open({ projectRoot: roots[name]! });
  const handlers = createHandlers(ctx);
  return {
    call: <T>(method: string, input: unknown) => invokeApi(handlers, method, input) as Promise<T>,
    close: () => ctx.core.close(),
  };
}

type Hits = { notes: Array<{ id: string; summary: string }> };
const summaries = (r: Hits) => r.notes.map((n) => n.summary).sort();

beforeAll(async () => {
  tmp = await tempDir('projects');
  home = path.join(tmp, 'home');
  for (const name of ['Alpha', 'Beta']) {
    roots[name] = path.join(tmp, name);
    await fs.mkdir(roots[name]!, { recursive: true });
  }
  const a = await inProject('Alpha');
  const out = await a.call<{ receipts: Array<{ status: string; scope: string }> }>('agents.retain', {
    items: [{ content: 'The invoice API uses cursor pagination, never offsets. #pagination' }],
  });
  expect(out.receipts).toMatchObject([{ status: 'stored', scope: 'user' }]);
  await a.call('notes.remember', {
    summary: 'The user prefers invoice numbers in monospace',
    body: 'Everywhere.',
    type: 'user',
  });
  await a.close();
}, 60_000);

afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('two projects, one home', { timeout: 120_000 }, () => {
  it('project B neither recalls, searches nor indexes what project A retained; untagged notes show in both', async () => {
    const b = await inProject('Beta');
    expect(
      summaries(await b.call<Hits>('agents.recall', { message: 'invoice pagination with cursor' })),
    ).toEqual(['The user prefers invoice numbers in monospace']);
    expect(
      summaries(await b.call<Hits>('notes.recall', { message: 'invoice pagination with cursor' })),
    ).toEqual(['The user prefers invoice numbers in monospace']);
    expect(summaries(await b.call<Hits>('notes.search', { query: 'invoice' }))).toEqual([
      'The user prefers invoice numbers in monospace',
    ]);
    const index = await b.call<{ text: string; shown: number }>('notes.index', {});
    expect(index.shown).toBe(1);
    expect(index.text).not.toContain('pagination');
    const prompt = await b.call<{ prompt: string; notes: unknown[] }>('agents.prompt', {});
    expect(prompt.prompt).not.toContain('pagination');
    expect(prompt.notes).toHaveLength(1);
    // The list (the app's view of everything) still has it.
    expect((await b.call<Hits>('notes.list', { scope: 'user' })).notes).toHaveLength(2);
    await b.close();

    const a = await inProject('Alpha');
    expect(
      summaries(await a.call<Hits>('agents.recall', { message: 'invoice pagination with cursor' })),
    ).toEqual([
      'The invoice API uses cursor pagination, never offsets.',
      'The user prefers invoice numbers in monospace',
    ]);
    expect(summaries(await a.call<Hits>('notes.search', { query: 'pagination' }))).toEqual([
      'The invoice API uses cursor pagination, never offsets.',
    ]);
    expect((await a.call<{ shown: number }>('notes.index', {})).shown).toBe(2);
    await a.close();
  });

  it('memdesk info lists the user notes tagged for projects, and which this project does not see', async () => {
    const r = await runMemdesk(['info'], { cwd: roots.Beta!, home });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('user notes tagged project:alpha: 1 (not seen in this project)');
    expect(r.stdout).toContain('The invoice API uses cursor pagination, never offsets.');
    const json = await runMemdesk(['--json', 'info'], { cwd: roots.Alpha!, home });
    const data = JSON.parse(json.stdout) as {
      projectLabel: string;
      taggedForProjects: Array<{ label: string; hiddenHere: boolean }>;
    };
    expect(data.projectLabel).toBe('alpha');
    expect(data.taggedForProjects).toMatchObject([{ label: 'alpha', hiddenHere: false }]);
  });
});
