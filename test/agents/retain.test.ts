import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { noteIdFor } from '../../electron/agents/note-id-for.js';
import { createAgentsHandlers } from '../../electron/api/handlers/agents.js';
import { createMemoryCore } from '../../electron/memory/core.js';
import { createNotesService } from '../../electron/memory/notes-service.js';
import { deriveSummary } from '../../electron/agents/retain/derive.js';
import { invokeApi, type ApiHandlers } from '../../electron/api/dispatch.js';
import { parseNote } from '../../shared/note-format.js';
import { makeHarness, mdFiles, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const userDir = (x: Harness) => path.join(x.home, 'memory', 'user');
const projectDir = (x: Harness) => path.join(x.projectRoot, 'MEMORY');

describe('retain: one receipt per item, after the note is on disk', () => {
  it('stores, refuses empty and credential items with reasons, in order', async () => {
    h = await makeHarness();
    const out = await h.handlers['agents.retain']({
      items: [
        {
          content: 'The team decided to ship releases on Tuesdays because QA works Mondays.',
          context: 'retro 2026-03',
        },
        { content: '   \n\t ' },
        { content: 'The staging password = hunter2hunter2 for the admin account' },
        { content: 'Grafana board for the API lives at https://grafana.example/d/api #grafana #监控' },
      ],
    });
    expect(out.bankScope).toBe('per-project-tagged');
    expect(out.receipts.map((r) => [r.index, r.status])).toEqual([
      [0, 'stored'],
      [1, 'refused'],
      [2, 'refused'],
      [3, 'stored'],
    ]);
    expect(out.receipts[1]?.reason).toMatch(/empty/);
    expect(out.receipts[2]?.reason).toMatch(/password or secret/);
    expect(out.receipts[2]?.reason).not.toContain('hunter2hunter2');

    const files = await mdFiles(userDir(h));
    expect(files).toEqual([`${out.receipts[0]!.id}.md`, `${out.receipts[3]!.id}.md`].sort());
    expect(await mdFiles(projectDir(h))).toEqual([]);
    const raw = await fs.readFile(path.join(userDir(h), `${out.receipts[0]!.id}.md`), 'utf8');
    const parsed = parseNote(raw);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.note).toMatchObject({
      summary: 'The team decided to ship releases on Tuesdays because QA works Mondays.',
      type: 'project',
      tags: ['project:my-project'],
      body: 'The team decided to ship releases on Tuesdays because QA works Mondays.\n\nContext: retro 2026-03\n',
      createdAt: h.clock.now,
    });
    const grafana = parseNote(await fs.readFile(path.join(userDir(h), `${out.receipts[3]!.id}.md`), 'utf8'));
    expect(grafana.ok && grafana.note.tags).toEqual(['project:my-project', 'grafana', '监控']);
    expect(grafana.ok && grafana.note.type).toBe('reference');
    // No temp files left behind.
    expect((await fs.readdir(userDir(h))).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('identical content updates the existing note (updatedAt) instead of a duplicate', async () => {
    h = await makeHarness();
    const first = await h.handlers['agents.retain']({
      items: [{ content: 'Use pnpm, not npm, in this repo.' }],
    });
    const id = first.receipts[0]!.id!;
    h.clock.now += 60_000;
    const again = await h.handlers['agents.retain']({
      items: [
        { content: '  Use pnpm, not npm, in this repo.  ', context: 'said again' },
        { content: 'Use pnpm, not npm, in this repo.' },
      ],
    });
    expect(again.receipts.map((r) => [r.status, r.id])).toEqual([
      ['updated', id],
      ['updated', id],
    ]);
    expect(await mdFiles(userDir(h))).toEqual([`${id}.md`]);
    const parsed = parseNote(await fs.readFile(path.join(userDir(h), `${id}.md`), 'utf8'));
    expect(parsed.ok && parsed.note.updatedAt).toBe(h.clock.now);
    expect(parsed.ok && parsed.note.createdAt).toBe(h.clock.now - 60_000);
  });

  it('a note written meanwhile by another process (stale view): re-read once, then updated, not failed', async () => {
    h = await makeHarness();
    // A second core on the same home stands for another process; h.core has already loaded the directory.
    const other = await createMemoryCore({
      home: h.home,
      projectRoot: h.projectRoot,
      env: {},
      now: () => h!.clock.now,
    });
    const otherHandlers = createAgentsHandlers({
      core: other,
      notes: createNotesService(other),
      cwd: h.projectRoot,
      env: {},
    });
    try {
      expect(h.core.store('user')?.list()).toEqual([]);
      const first = await otherHandlers['agents.retain']({
        items: [{ content: 'Written by the other process first.' }],
      });
      expect(first.receipts[0]?.status).toBe('stored');
      h.clock.now += 1000;
      const second = await h.handlers['agents.retain']({
        items: [{ content: 'Written by the other process first.' }],
      });
      expect(second.receipts[0]).toMatchObject({ status: 'updated', id: first.receipts[0]!.id });
      expect(await mdFiles(userDir(h))).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('a probable duplicate (not identical) is stored and reported', async () => {
    h = await makeHarness();
    await h.handlers['agents.retain']({
      items: [
        { content: 'The staging database is reset every Monday at 06:00 UTC by the cleanup cron job.' },
      ],
    });
    const out = await h.handlers['agents.retain']({
      items: [
        {
          content: 'The staging database is reset every Monday at 06:00 UTC by the nightly cleanup cron job.',
        },
      ],
    });
    expect(out.receipts[0]?.status).toBe('stored');
    expect(out.receipts[0]?.probableDuplicate?.summary).toMatch(/staging database is reset/);
  });

  it('one item whose write fails for real does not hide the others', async () => {
    h = await makeHarness();
    const blocked = 'Deploys are frozen on Fridays after 15:00.';
    const blockedId = noteIdFor(deriveSummary(blocked), blocked);
    // A non-empty directory where the note file must go: the rename onto it fails.
    await fs.mkdir(path.join(userDir(h), `${blockedId}.md`, 'occupied'), { recursive: true });
    const out = await h.handlers['agents.retain']({
      items: [
        { content: 'The CI runs on GitHub Actions.' },
        { content: blocked },
        { content: 'Code review needs two approvals.' },
      ],
    });
    expect(out.receipts.map((r) => r.status)).toEqual(['stored', 'failed', 'stored']);
    expect(out.receipts[1]).toMatchObject({ index: 1, id: blockedId, status: 'failed' });
    expect(out.receipts[1]?.reason).toMatch(/E(ISDIR|NOTEMPTY|EXIST|PERM)|directory/i);
    for (const r of [out.receipts[0]!, out.receipts[2]!]) {
      const raw = await fs.readFile(path.join(userDir(h), `${r.id}.md`), 'utf8');
      expect(parseNote(raw).ok).toBe(true);
    }
  });

  it('an item over memory.maxNoteBytes is refused alone; its neighbours are stored', async () => {
    h = await makeHarness({ env: { OHARNESS_MEMORY_MAX_NOTE_BYTES: '2000' } });
    const out = await h.handlers['agents.retain']({
      items: [
        { content: 'Small fact one.' },
        { content: `Huge fact. ${'x'.repeat(5000)}` },
        { content: 'Small fact two.' },
      ],
    });
    expect(out.receipts.map((r) => r.status)).toEqual(['stored', 'refused', 'stored']);
    expect(out.receipts[1]?.reason).toMatch(/maxNoteBytes|2000/);
    expect(await mdFiles(userDir(h))).toHaveLength(2);
  });

  it('bank scopes: global → user, per-project → project, invalid config falls back with a warning', async () => {
    h = await makeHarness();
    const g = await h.handlers['agents.retain']({
      items: [{ content: 'The user writes in Swedish and English.' }],
      bankScope: 'global',
    });
    expect(g.receipts[0]).toMatchObject({ status: 'stored', scope: 'user' });
    const gNote = parseNote(await fs.readFile(path.join(userDir(h), `${g.receipts[0]!.id}.md`), 'utf8'));
    expect(gNote.ok && gNote.note.tags).toEqual([]);

    const p = await h.handlers['agents.retain']({
      items: [{ content: 'This project targets Node 20.' }],
      bankScope: 'per-project',
    });
    expect(p.receipts[0]).toMatchObject({ status: 'stored', scope: 'project' });
    expect(await mdFiles(projectDir(h))).toEqual([`${p.receipts[0]!.id}.md`]);

    await fs.writeFile(
      path.join(h.home, 'config.json'),
      JSON.stringify({ memory: { retain: { scoping: 'per-galaxy' } } }),
    );
    // memory.retain.scoping is part of the core's config: read when the core opens.
    const reopened = async () => {
      const core = await createMemoryCore({ home: h!.home, projectRoot: h!.projectRoot, env: {} });
      const handlers = createAgentsHandlers({ core, notes: createNotesService(core), cwd: h!.projectRoot });
      return { core, handlers };
    };
    const badCtx = await reopened();
    const bad = await badCtx.handlers['agents.retain']({
      items: [{ content: 'Tabs are four spaces wide here.' }],
    });
    await badCtx.core.close();
    expect(bad.bankScope).toBe('per-project-tagged');
    expect(bad.warnings.some((w) => w.message.includes('memory.retain.scoping'))).toBe(true);

    await fs.writeFile(
      path.join(h.home, 'config.json'),
      JSON.stringify({ memory: { retain: { scoping: 'global' } } }),
    );
    const cfgCtx = await reopened();
    const cfg = await cfgCtx.handlers['agents.retain']({ items: [{ content: 'Lunch is at noon.' }] });
    await cfgCtx.core.close();
    expect(cfg.bankScope).toBe('global');
    expect(cfg.warnings).toEqual([]);
  });

  it('per-project without a project goes to the user scope, tagged, with a warning', async () => {
    h = await makeHarness({ withProject: false, projectName: 'Loose Dir' });
    const out = await h.handlers['agents.retain']({
      items: [{ content: 'Scratch fact about the loose directory.' }],
      bankScope: 'per-project',
    });
    expect(out.receipts[0]).toMatchObject({ status: 'stored', scope: 'user' });
    expect(out.warnings[0]?.code).toBe('no_project');
  });

  it('through invokeApi: no items, a missing content, a bad bank scope are input errors and write nothing', async () => {
    h = await makeHarness();
    const handlers = h.handlers as unknown as ApiHandlers;
    await expect(invokeApi(handlers, 'agents.retain', { items: [] })).rejects.toThrow(
      /items: at least one item/,
    );
    await expect(invokeApi(handlers, 'agents.retain', { items: [{ context: 'x' }] })).rejects.toThrow(
      /items\.0\.content/,
    );
    await expect(
      invokeApi(handlers, 'agents.retain', { items: [{ content: 'x' }], bankScope: 'galaxy' }),
    ).rejects.toThrow(/bankScope/);
    await expect(invokeApi(handlers, 'agents.retain', {})).rejects.toThrow(/items/);
    expect(await mdFiles(userDir(h))).toEqual([]);
    expect(await mdFiles(projectDir(h))).toEqual([]);
  });
});
