import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppRoot } from '../../electron/app/app-root.js';
import { invokeApi } from '../../electron/api/dispatch.js';
import { createHandlers } from '../../electron/api/handlers.js';
import { embeddingsSettingsPath, vectorsDir } from '../../electron/memory/semantic/settings.js';
import { tempDir } from '../support/temp-dir.js';
import { sumParts } from '../search/helpers.js';
import { startStandInEmbeddings } from './stand-in-embeddings.js';
import type { StandInServer } from './stand-in-embeddings.js';

/**
 * Semantic recall through the API, the way the app, the hooks and the MCP server use it, against a
 * stand-in embeddings server (deterministic vectors): fused with the lexical ranking, off by
 * default, words alone (and one notice) when the endpoint is down, vectors kept per machine.
 */
let tmp: string;
let home: string;
let project: string;
let server: StandInServer;

interface Hit {
  id: string;
  summary: string;
  score: number;
  why: {
    parts: { summary: number; tags: number; body: number; usage: number; semantic?: number };
    semantic?: { similarity: number; rank: number };
  };
}
interface Hits {
  notes: Hit[];
  notice?: string;
}

async function open() {
  const { ctx } = await createAppRoot({ home, env: process.env }).open({ projectRoot: project });
  const handlers = createHandlers(ctx);
  return {
    core: ctx.core,
    call: <T>(method: string, input: unknown) => invokeApi(handlers, method, input) as Promise<T>,
    close: () => ctx.core.close(),
  };
}

async function configure(settings: Record<string, unknown> | null): Promise<void> {
  const file = embeddingsSettingsPath(home);
  if (settings === null) await fs.rm(file, { force: true });
  else {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, JSON.stringify(settings));
  }
}

const QUERY = 'automobile servicing timetable';

beforeAll(async () => {
  tmp = await tempDir('hybrid');
  home = path.join(tmp, 'home');
  project = path.join(tmp, 'project');
  await fs.mkdir(project, { recursive: true });
  server = await startStandInEmbeddings();
  const app = await open();
  await app.call('project.init', {}).catch(() => undefined);
  for (const [summary, body] of [
    ['Car maintenance plan', 'Change the oil every 10,000 km.'],
    ['Servicing the coffee machine', 'Descale it monthly.'],
    ['Watering the garden', 'Twice a week in summer.'],
  ])
    await app.call('notes.remember', { summary, body, type: 'project' });
  await app.close();
}, 60_000);

afterAll(async () => {
  await server.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('semantic recall through the API (stand-in embeddings server)', { timeout: 60_000 }, () => {
  it('off by default: words alone, the paraphrase is not found, nothing is embedded', async () => {
    const app = await open();
    const hits = await app.call<Hits>('notes.search', { query: QUERY });
    expect(hits.notes.map((h) => h.summary)).toEqual(['Servicing the coffee machine']);
    expect(hits.notice).toBeUndefined();
    expect(server.inputs).toHaveLength(0);
    await app.close();
  });

  it('on: fusion brings the paraphrase up in search, reorders recall, and why shows the semantic part', async () => {
    await configure({ enabled: true, baseUrl: server.baseUrl, model: 'stand-in' });
    const app = await open();
    const hits = await app.call<Hits>('notes.search', { query: QUERY });
    const car = hits.notes.find((h) => h.summary === 'Car maintenance plan');
    expect(car).toBeDefined();
    expect(hits.notes.indexOf(car!)).toBeLessThanOrEqual(1);
    expect(car!.why.semantic).toMatchObject({ rank: 1 });
    expect(car!.why.parts.semantic).toBeGreaterThan(0);
    for (const h of hits.notes) expect(h.score).toBe(sumParts(h.why.parts));

    // Recall attaches only notes matching a word in their summary or tags (the seed's rule): the
    // paraphrase sharing no word is not attached, however close in meaning.
    const recalled = await app.call<Hits & { text: string }>('agents.recall', { message: QUERY });
    expect(recalled.notes.map((n) => n.summary)).toEqual(['Servicing the coffee machine']);
    expect(recalled.text).not.toContain('Change the oil');
    expect(recalled.notice).toBeUndefined();

    // Incremental: the notes were embedded once; a changed note is the only one embedded again.
    const embedded = server.inputs.filter((t) => !t.startsWith(QUERY)).length;
    expect(embedded).toBe(3);
    await app.call('notes.edit', { id: car!.id, body: 'Change the oil every 15,000 km.' });
    await app.call<Hits>('notes.search', { query: QUERY });
    const again = server.inputs.filter((t) => !t.startsWith(QUERY));
    expect(again).toHaveLength(4);
    expect(again[3]).toContain('15,000 km');

    // Notes that do match a word are fused with the semantic ranks (the order: test/search/recall).
    const both = await app.call<Hits>('agents.recall', { message: 'car servicing timetable' });
    expect(both.notes.map((n) => n.summary).sort()).toEqual([
      'Car maintenance plan',
      'Servicing the coffee machine',
    ]);
    const car2 = both.notes.find((n) => n.summary === 'Car maintenance plan')!;
    expect(car2.why.semantic).toMatchObject({ rank: 1 });
    for (const n of both.notes) expect(n.score).toBe(sumParts(n.why.parts));
    await app.close();
  });

  it('endpoint down: recall is by words at once, and says so once', async () => {
    const down = await startStandInEmbeddings();
    const url = down.baseUrl;
    await down.close();
    await configure({ enabled: true, baseUrl: url, model: 'stand-in' });
    const app = await open();
    const first = await app.call<Hits>('agents.recall', { message: QUERY });
    expect(first.notice).toMatch(/semantic recall is off/);
    expect(first.notes.map((n) => n.summary)).toEqual(['Servicing the coffee machine']);
    expect(first.notes[0]!.why.parts.semantic).toBeUndefined();
    const second = await app.call<Hits>('agents.recall', { message: QUERY });
    expect(second.notice).toBeUndefined();
    expect(second.notes.map((n) => n.summary)).toEqual(['Servicing the coffee machine']);
    await app.close();
  });

  it('keeps vectors per machine beside the usage data: never in a notes folder', async () => {
    const app = await open();
    const files = await fs.readdir(vectorsDir(home));
    expect(files.some((f) => f.startsWith('project-'))).toBe(true);
    for (const scope of ['project', 'user'] as const) {
      const dir = app.core.store(scope)?.dir;
      if (!dir) continue;
      expect(path.relative(dir, vectorsDir(home)).startsWith('..')).toBe(true);
      const inNotes = await fs.readdir(dir, { recursive: true });
      expect(inNotes.filter((f) => !f.endsWith('.md') && !f.startsWith('.'))).toEqual([]);
    }
    await app.close();
  });
});
