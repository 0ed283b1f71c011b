import { promises as fs } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { MergePlan } from '../../shared/api/cleanup.js';
import { AppError } from '../../shared/errors.js';
import { parseNote } from '../../shared/note-format.js';
import { CleanupService } from '../../electron/cleanup/cleanup-service.js';
import { applyMerge, type MergeCore } from '../../electron/cleanup/merge.js';
import { MemoryKeyStore } from '../../electron/cleanup/model/key-store.js';
import { DAY, sandbox, snapshotDir, type Sandbox } from './helpers.js';

let sb: Sandbox;
afterEach(async () => sb?.close());

const service = (s: Sandbox): CleanupService =>
  new CleanupService({ core: s.core, keyStore: new MemoryKeyStore() });

/** Three notes on one topic (b is the oldest), plus notes that link to them in both scopes. */
async function seed(s: Sandbox): Promise<void> {
  const t = s.clock.t;
  await s.put('project', {
    id: 'a',
    summary: 'Pricing page cards: use fill instead of borders',
    type: 'feedback',
    tags: ['design'],
    createdAt: t - 5 * DAY,
    body: 'Fill, no border. See [[c]].',
  });
  await s.put('project', {
    id: 'b',
    summary: 'Pricing cards use fills, not borders',
    type: 'project',
    tags: ['pricing', 'design'],
    createdAt: t - 9 * DAY,
    body: 'Cards are separated by fill.',
  });
  await s.put('project', {
    id: 'c',
    summary: 'No borders on pricing cards',
    tags: ['Design', 'css'],
    createdAt: t - 2 * DAY,
    body: 'Cards are separated by fill.',
  });
  await s.put('project', {
    id: 'layout',
    summary: 'Layout',
    createdAt: t - 20 * DAY,
    body: 'Cards: [[a]], [[C|the c note]], and [[b]]. Unrelated [[layout-x]].',
  });
  await s.put('project', { id: 'other', summary: 'Other', createdAt: t - 20 * DAY, body: 'No links here.' });
  await s.put('user', {
    id: 'mine',
    summary: 'Mine',
    createdAt: t - 20 * DAY,
    body: 'User note linking [[a]] stays as it is.',
  });
}

describe('merge planning (手动合并)', () => {
  it('keeps the oldest note, joins every original readably and records the basis hashes', async () => {
    sb = await seed2();
    const plan = await service(sb).planMerge({ ids: ['a', 'b', 'c'] });
    expect(plan.keepId).toBe('b');
    expect(plan.scope).toBe('project');
    expect(plan.draftSource).toBe('manual');
    expect(plan.draft.summary).toBe('Pricing cards use fills, not borders');
    expect(plan.draft.type).toBe('project'); // types disagree → the oldest's
    expect(plan.draft.tags).toEqual(['pricing', 'design', 'css']);
    expect(plan.draft.body).toBe(
      '## Pricing cards use fills, not borders\n\nCards are separated by fill.\n\n' +
        '## Pricing page cards: use fill instead of borders\n\nFill, no border. See [[c]].\n',
    ); // c's body equals b's: included once
    expect(plan.basis).toEqual({
      b: sb.core.store('project')!.get('b')!.hash,
      a: sb.core.store('project')!.get('a')!.hash,
      c: sb.core.store('project')!.get('c')!.hash,
    });
  });

  it('refuses fewer than 2 or more than 6 notes, unknown ids and mixed scopes', async () => {
    sb = await seed2();
    const svc = service(sb);
    await expect(svc.planMerge({ ids: ['a'] })).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(svc.planMerge({ ids: ['a', 'A'] })).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(svc.planMerge({ ids: ['a', 'b', 'c', 'layout', 'other', 'x', 'y'] })).rejects.toThrow(
      /2 to 6/,
    );
    await expect(svc.planMerge({ ids: ['a', 'nope'] })).rejects.toMatchObject({ code: 'not_found' });
    await expect(svc.planMerge({ ids: ['a', 'mine'] })).rejects.toThrow(/one scope/);
  });
});

async function seed2(): Promise<Sandbox> {
  const s = await sandbox();
  await seed(s);
  return s;
}

describe('merge apply', () => {
  it('keeps the oldest id with the draft, deletes the others, repoints links in the scope and backs up everything it touches', async () => {
    sb = await seed2();
    const svc = service(sb);
    const plan = await svc.planMerge({ ids: ['c', 'a', 'b'] });
    plan.draft.body += '\nEdited by hand. Also [[a]].\n';
    sb.clock.advance(1000);
    const result = await svc.applyMerge(plan);
    expect(result).toMatchObject({
      scope: 'project',
      keptId: 'b',
      deletedIds: ['a', 'c'],
      repointed: [{ id: 'layout', links: 2 }],
      committedFirst: false,
    });

    expect(await sb.raw('project', 'a')).toBeNull();
    expect(await sb.raw('project', 'c')).toBeNull();
    const kept = parseNote((await sb.raw('project', 'b'))!);
    if (!kept.ok) throw new Error(kept.reason);
    expect(kept.note.summary).toBe('Pricing cards use fills, not borders');
    expect(kept.note.body).toContain('See [[b]].'); // [[c]] inside the merged body repointed
    expect(kept.note.body).toContain('Also [[b]].');
    expect(kept.note.createdAt).toBe(sb.clock.t - 1000 - 9 * DAY);
    expect(kept.note.updatedAt).toBe(sb.clock.t);

    const layout = parseNote((await sb.raw('project', 'layout'))!);
    expect(layout.ok && layout.note.body).toBe(
      'Cards: [[b]], [[b|the c note]], and [[b]]. Unrelated [[layout-x]].',
    );
    expect(await sb.raw('project', 'other')).toContain('No links here.');
    // Only that scope: the user note keeps its link.
    expect(await sb.raw('user', 'mine')).toContain('[[a]]');

    // Backups: the kept note and the repointed note before they changed, and both deleted notes.
    const backups = await sb.core.user.backups.list(50);
    expect(backups.map((b) => b.noteId).sort()).toEqual(['a', 'b', 'c', 'layout']);
    expect(backups.every((b) => b.reason === 'merge into b')).toBe(true);
    expect(result.backupIds).toHaveLength(4);
    const aBackup = backups.find((b) => b.noteId === 'a')!;
    expect((await sb.core.user.backups.get(aBackup.id)).content).toContain('Fill, no border.');

    // The same-topic finding is gone.
    expect((await svc.findings()).filter((f) => f.kind === 'same_topic')).toEqual([]);
  });

  it('is refused when a note changed since planning, naming it, and changes nothing', async () => {
    sb = await seed2();
    const svc = service(sb);
    const plan = await svc.planMerge({ ids: ['a', 'b', 'c'] });
    await sb.put('project', {
      id: 'c',
      summary: 'No borders on pricing cards',
      tags: ['Design', 'css'],
      createdAt: sb.clock.t - 2 * DAY,
      body: 'Edited by an agent meanwhile.',
    });
    const before = await snapshotDir(sb.memoryDir);
    const err = await svc.applyMerge(plan).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'conflict' });
    expect((err as Error).message).toMatch(/changed since the merge was planned: c\b/);
    expect(await snapshotDir(sb.memoryDir)).toEqual(before);
    expect(await sb.core.user.backups.list(50)).toEqual([]);

    await fs.rm(`${sb.memoryDir}/a.md`);
    const plan2 = { ...plan, basis: { ...plan.basis, c: sb.core.store('project')!.get('c')!.hash } };
    await expect(svc.applyMerge(plan2)).rejects.toThrow(/no longer exist: a/);
  });

  it('is refused when the merged body is over memory.maxNoteBytes, and changes nothing', async () => {
    sb = await sandbox({ OHARNESS_MEMORY_MAX_NOTE_BYTES: '2000' });
    await seed(sb);
    const svc = service(sb);
    const plan = await svc.planMerge({ ids: ['a', 'b'] });
    plan.draft.body = '数'.repeat(700); // 2100 bytes in UTF-8, 700 characters
    const before = await snapshotDir(sb.memoryDir);
    await expect(svc.applyMerge(plan)).rejects.toMatchObject({
      code: 'limit_exceeded',
      message: expect.stringMatching(/2100 bytes, over memory\.maxNoteBytes \(2000\)/),
    });
    expect(await snapshotDir(sb.memoryDir)).toEqual(before);
  });

  // The user store takes the user config's memory.maxNoteBytes (core.config is project-layered): a
  // merge in the user scope is checked against that, one way and the other.
  it.each([
    { userMax: 2000, projectMax: 4000, applies: false },
    { userMax: 4000, projectMax: 2000, applies: true },
  ])(
    "a user-scope merge is checked against the user store's maxNoteBytes ($userMax; project $projectMax)",
    async ({ userMax, projectMax, applies }) => {
      sb = await sandbox();
      await fs.writeFile(`${sb.home}/config.json`, JSON.stringify({ memory: { maxNoteBytes: userMax } }));
      await fs.mkdir(`${sb.root}/.oharness`, { recursive: true });
      await fs.writeFile(
        `${sb.root}/.oharness/config.json`,
        JSON.stringify({ memory: { maxNoteBytes: projectMax } }),
      );
      await sb.reopen();
      expect(sb.core.config.maxNoteBytes).toBe(projectMax);
      await sb.put('user', { id: 'u1', summary: 'One', createdAt: sb.clock.t - 2 * DAY, body: 'one' });
      await sb.put('user', { id: 'u2', summary: 'Two', createdAt: sb.clock.t - DAY, body: 'two' });
      const svc = service(sb);
      const plan = await svc.planMerge({ ids: ['u1', 'u2'], scope: 'user' });
      plan.draft.body = 'm'.repeat(3000); // between the two limits
      const before = await snapshotDir(sb.userDir);

      if (!applies) {
        await expect(svc.applyMerge(plan)).rejects.toMatchObject({
          code: 'limit_exceeded',
          message: expect.stringMatching(/3000 bytes, over memory\.maxNoteBytes \(2000\)/),
        });
        expect(await snapshotDir(sb.userDir)).toEqual(before);
        expect(await sb.core.user.backups.list(50)).toEqual([]);
        return;
      }
      expect(await svc.applyMerge(plan)).toMatchObject({ scope: 'user', keptId: 'u1', deletedIds: ['u2'] });
      expect(await sb.raw('user', 'u2')).toBeNull();
      const store = sb.core.store('user')!;
      await store.load();
      expect(store.get('u1')?.body).toBe(plan.draft.body);
      expect(store.warnings()).toEqual([]);
      expect(store.held()).toEqual([]);
    },
  );

  it('refuses a plan file edited to keep another note or with a broken draft', async () => {
    sb = await seed2();
    const svc = service(sb);
    const plan = await svc.planMerge({ ids: ['a', 'b'] });
    const before = await snapshotDir(sb.memoryDir);
    await expect(svc.applyMerge({ ...plan, keepId: 'a' })).rejects.toThrow(/keeps the oldest note, "b"/);
    await expect(svc.applyMerge({ ...plan, keepId: 'zzz' })).rejects.toThrow(/not one of its notes/);
    await expect(
      svc.applyMerge({ ...plan, draft: { ...plan.draft, summary: '  ' } } as MergePlan),
    ).rejects.toMatchObject({ code: 'invalid_input' });
    expect(await snapshotDir(sb.memoryDir)).toEqual(before);
  });
});

describe('merge apply failing midway', () => {
  it('loses nothing: a note edited by an agent during the merge stops it, everything touched is in backups, nothing is deleted', async () => {
    sb = await seed2();
    const svc = service(sb);
    const plan = await svc.planMerge({ ids: ['a', 'b', 'c'] });
    const originalB = await sb.raw('project', 'b');
    // An agent edits `layout` after the merge was checked and before it is written (the commit
    // step is the last moment before local writes, so the race is staged there).
    // The last moment before local writes is the backup step: the race is staged there, through
    // the real core with its backupNote wrapped to let the agent write first.
    let raced = false;
    const racingCore: MergeCore = {
      store: (scope) => sb.core.store(scope),
      now: sb.core.now,
      backupNote: async (scope, id, why) => {
        if (!raced) {
          raced = true;
          await fs.writeFile(
            `${sb.memoryDir}/layout.md`,
            ((await sb.raw('project', 'layout')) ?? '').replace('Unrelated', 'Edited by an agent.'),
          );
        }
        return sb.core.backupNote(scope, id, why);
      },
    };
    const err = (await applyMerge(racingCore, plan).catch((e: unknown) => e)) as AppError;
    expect(err).toBeInstanceOf(AppError);
    expect(err.message).toMatch(/merge stopped at repointing links in layout/);
    expect(err.message).toMatch(/Already done: writing the merged note b/);
    expect(err.message).toMatch(/Nothing is lost/);

    // The agent's edit is intact, the merged-away notes were not deleted, b's old version is backed up.
    expect(await sb.raw('project', 'layout')).toContain('Edited by an agent.');
    expect(await sb.raw('project', 'a')).not.toBeNull();
    expect(await sb.raw('project', 'c')).not.toBeNull();
    const backups = await sb.core.user.backups.list(50);
    const bBackup = backups.find((b) => b.noteId === 'b')!;
    expect((await sb.core.user.backups.get(bBackup.id)).content).toBe(originalB);
    expect(backups.find((b) => b.noteId === 'layout')).toBeDefined();
  });
});
