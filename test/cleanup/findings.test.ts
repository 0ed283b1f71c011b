import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CleanupService } from '../../electron/cleanup/cleanup-service.js';
import { MemoryKeyStore } from '../../electron/cleanup/model/key-store.js';
import { DAY, sandbox, type Sandbox } from './helpers.js';

let sb: Sandbox;
afterEach(async () => sb?.close());

const service = (s: Sandbox): CleanupService =>
  new CleanupService({ core: s.core, keyStore: new MemoryKeyStore() });

describe('findings on real notes', () => {
  it('finds a same-topic group in one scope, with a stable id, and never across scopes', async () => {
    sb = await sandbox();
    await sb.put('project', {
      id: 'pricing-a',
      summary: 'Pricing cards use fills, not borders',
      tags: ['design', 'pricing'],
    });
    await sb.put('project', {
      id: 'pricing-b',
      summary: 'Pricing page cards: use fill instead of borders',
      tags: ['design', 'pricing'],
    });
    await sb.put('project', { id: 'deploy', summary: 'Deploys go out on Fridays', tags: ['ops'] });
    await sb.put('user', {
      id: 'pricing-u',
      summary: 'Pricing cards use fills, not borders',
      tags: ['design', 'pricing'],
    });
    const findings = await service(sb).findings();
    const same = findings.filter((f) => f.kind === 'same_topic');
    expect(same).toHaveLength(1);
    expect(same[0]).toMatchObject({
      id: 'same_topic:project:pricing-a,pricing-b',
      scope: 'project',
      noteIds: ['pricing-a', 'pricing-b'],
    });
    expect(same[0]!.detail).toMatch(/2 notes about the same topic/);
    // Stable: the same id on every run.
    expect((await service(sb).findings()).map((f) => f.id)).toEqual(findings.map((f) => f.id));
  });

  it('reports broken links, resolving project first and then user notes', async () => {
    sb = await sandbox();
    await sb.put('user', { id: 'my-style', summary: 'My style' });
    await sb.put('project', {
      id: 'a',
      summary: 'Alpha',
      body: 'See [[b]], [[my-style]], [[ghost]] and [[later-note|a label]].',
    });
    await sb.put('project', { id: 'b', summary: 'Beta' });
    await sb.put('user', { id: 'u1', summary: 'User one', body: 'Points at [[a]] and [[nobody]].' });
    const broken = (await service(sb).findings()).filter((f) => f.kind === 'broken_link');
    expect(broken).toEqual([
      expect.objectContaining({
        id: 'broken_link:project:a',
        noteIds: ['a'],
        targets: ['ghost', 'later-note'],
      }),
      expect.objectContaining({ id: 'broken_link:user:u1', noteIds: ['u1'], targets: ['nobody'] }),
    ]);
    expect(broken[0]!.detail).toContain('[[ghost]]');
  });

  it('reports relative paths a project note names that do not exist in the project (user notes are not checked)', async () => {
    sb = await sandbox();
    await fs.mkdir(path.join(sb.root, 'src', 'pricing'), { recursive: true });
    await fs.writeFile(path.join(sb.root, 'src', 'pricing', 'Cards.tsx'), '');
    await sb.put('project', {
      id: 'files',
      summary: 'Where things are',
      body: 'Cards: `src/pricing/Cards.tsx`. Old: src/pricing/Table.tsx, docs/. Not paths: https://x.io/a/b.ts /etc/x.conf and/or.',
    });
    await sb.put('project', {
      id: 'fine',
      summary: 'Fine',
      body: 'Only src/pricing/Cards.tsx here and ./src/ too.',
    });
    await sb.put('user', { id: 'user-paths', summary: 'User', body: 'lib/gone.ts' });
    const missing = (await service(sb).findings()).filter((f) => f.kind === 'missing_file');
    expect(missing).toEqual([
      expect.objectContaining({
        id: 'missing_file:project:files',
        targets: ['src/pricing/Table.tsx', 'docs/'],
      }),
    ]);
  });

  it('reports notes neither recalled nor edited in unusedDays (90), using the injected clock and recall stats', async () => {
    sb = await sandbox();
    const old = sb.clock.t - 100 * DAY;
    await sb.put('project', { id: 'stale', summary: 'Stale one', createdAt: old, updatedAt: old });
    await sb.put('project', { id: 'recalled', summary: 'Recalled one', createdAt: old, updatedAt: old });
    await sb.put('project', {
      id: 'edited',
      summary: 'Edited one',
      createdAt: old,
      updatedAt: sb.clock.t - 10 * DAY,
    });
    await sb.put('project', {
      id: 'edge',
      summary: 'Edge case',
      createdAt: old,
      updatedAt: sb.clock.t - 90 * DAY,
    });
    await sb.core.usage.record([{ scope: 'project', id: 'recalled' }]);
    const unused = (await service(sb).findings()).filter((f) => f.kind === 'unused');
    expect(unused.map((f) => f.id)).toEqual(['unused:project:stale']);
    expect(unused[0]!.detail).toContain('100 days');

    sb.clock.advance(91 * DAY);
    const later = (await service(sb).findings()).filter((f) => f.kind === 'unused').map((f) => f.noteIds[0]);
    expect(later.sort()).toEqual(['edge', 'edited', 'recalled', 'stale']);
  });

  it('turns the unused finding off with memory.consolidate.unusedDays = 0', async () => {
    sb = await sandbox({ OHARNESS_MEMORY_CONSOLIDATE_UNUSED_DAYS: '0' });
    await sb.put('project', { id: 'stale', summary: 'Stale', createdAt: 0, updatedAt: 0 });
    expect((await service(sb).findings()).filter((f) => f.kind === 'unused')).toEqual([]);
  });

  it('reports bodies over 8,000 characters (counted as characters, not bytes)', async () => {
    sb = await sandbox();
    await sb.put('project', { id: 'long', summary: 'Long', body: 'x'.repeat(8001) });
    await sb.put('project', { id: 'exact', summary: 'Exactly at the limit', body: 'y'.repeat(8000) });
    await sb.put('project', { id: 'cjk', summary: 'CJK at the limit', body: '长'.repeat(8000) });
    await sb.put('project', { id: 'emoji', summary: 'Astral characters', body: '😀'.repeat(4001) });
    const long = (await service(sb).findings()).filter((f) => f.kind === 'too_long');
    expect(long.map((f) => f.id)).toEqual(['too_long:project:long']);
    expect(long[0]!.detail).toContain('8001 characters');
  });
});

describe('dismissals', () => {
  it('hides a dismissed finding until one of its notes is edited, and keeps it on this machine only', async () => {
    sb = await sandbox();
    await sb.put('project', { id: 'a', summary: 'Log timestamps are in UTC', tags: ['logging'] });
    await sb.put('project', { id: 'b', summary: 'Logs use UTC timestamps', tags: ['logging'] });
    await sb.put('project', { id: 'c', summary: 'Unrelated', body: 'see [[nowhere]]' });
    const svc = service(sb);
    const id = 'same_topic:project:a,b';
    expect((await svc.findings()).map((f) => f.id)).toContain(id);

    const res = await svc.dismiss(id);
    expect(Object.keys(res.hashes)).toEqual(['a', 'b']);
    expect((await svc.findings()).map((f) => f.id)).not.toContain(id);
    expect((await svc.findings({ includeDismissed: true })).map((f) => f.id)).toContain(id);
    const file = JSON.parse(
      await fs.readFile(path.join(sb.home, 'memory-cleanup', 'dismissals.json'), 'utf8'),
    );
    expect(Object.values(file.scopes).some((s) => id in (s as object))).toBe(true);
    // Other findings are unaffected.
    expect((await svc.findings()).map((f) => f.id)).toContain('broken_link:project:c');

    // Survives a restart.
    await sb.reopen();
    expect((await service(sb).findings()).map((f) => f.id)).not.toContain(id);

    // Edit one of the notes: the finding returns.
    await sb.put('project', { id: 'b', summary: 'Logs use UTC timestamps everywhere', tags: ['logging'] });
    expect((await service(sb).findings()).map((f) => f.id)).toContain(id);
  });

  it('dismisses a group in one call (all or nothing) and undoes it; the undo survives a restart', async () => {
    sb = await sandbox();
    await sb.put('project', { id: 'a', summary: 'Log timestamps are in UTC', tags: ['logging'] });
    await sb.put('project', { id: 'b', summary: 'Logs use UTC timestamps', tags: ['logging'] });
    await sb.put('project', { id: 'c', summary: 'Unrelated', body: 'see [[nowhere]]' });
    await sb.put('user', { id: 'u', summary: 'Mine', body: 'see [[gone]]' });
    const svc = service(sb);
    const group = ['same_topic:project:a,b', 'broken_link:project:c', 'broken_link:user:u'];
    expect((await svc.findings()).map((f) => f.id)).toEqual(expect.arrayContaining(group));

    // One unknown id refuses the whole group: nothing is dismissed.
    await expect(svc.dismissMany([...group, 'broken_link:project:zzz'])).rejects.toMatchObject({
      code: 'not_found',
    });
    expect((await svc.findings()).map((f) => f.id)).toEqual(expect.arrayContaining(group));

    expect((await svc.dismissMany(group)).map((d) => d.findingId)).toEqual(group);
    expect((await svc.findings()).map((f) => f.id)).toEqual(expect.not.arrayContaining(group));

    await svc.undismiss(group.slice(0, 2));
    await sb.reopen();
    const after = (await service(sb).findings()).map((f) => f.id);
    expect(after).toEqual(expect.arrayContaining(group.slice(0, 2)));
    expect(after).not.toContain('broken_link:user:u');
  });

  it('refuses unknown or malformed finding ids, and never overwrites a dismissals file it cannot read', async () => {
    sb = await sandbox();
    await sb.put('project', { id: 'c', summary: 'Unrelated', body: 'see [[nowhere]]' });
    const svc = service(sb);
    await expect(svc.dismiss('broken_link:project:zzz')).rejects.toMatchObject({ code: 'not_found' });
    await expect(svc.dismiss('garbage')).rejects.toMatchObject({ code: 'invalid_input' });

    const file = path.join(sb.home, 'memory-cleanup', 'dismissals.json');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, '{ not json');
    await expect(svc.findings()).rejects.toThrow(/dismissals\.json is not valid JSON/);
    await expect(svc.dismiss('broken_link:project:c')).rejects.toThrow(/not valid JSON/);
    expect(await fs.readFile(file, 'utf8')).toBe('{ not json');
  });
});
