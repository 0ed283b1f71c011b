import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseNote, serializeNote } from '../../shared/note-format.js';
import { fixture, note, snapshot, until, writeNoteFile } from './helpers.js';
import { rejection } from './rejection.js';

describe('remember / edit / forget', () => {
  it('remember: default scope by type, tags normalised, timestamps from the clock, file on disk', async () => {
    const fx = await fixture();
    const { notes } = await fx.open();
    const fb = await notes.remember({
      summary: ' Pricing cards use fills ',
      type: 'feedback',
      tags: ' design, UI  design,ui ',
      body: 'Fill, not border.',
    });
    expect(fb.note.scope).toBe('project');
    expect(fb.note.tags).toEqual(['design', 'UI']);
    expect(fb.note.summary).toBe('Pricing cards use fills');
    expect(fb.note.createdAt).toBe(fx.clock.now());
    const u = await notes.remember({ summary: 'Prefers terse answers', type: 'user', body: '' });
    expect(u.note.scope).toBe('user');
    const untyped = await notes.remember({ summary: 'No type at all', body: 'x' });
    expect(untyped.note.scope).toBe('project');
    const pinned = await notes.remember({
      summary: 'Feedback for everywhere',
      type: 'feedback',
      scope: 'user',
      body: 'x',
    });
    expect(pinned.note.scope).toBe('user');

    const onDisk = parseNote(await fs.readFile(path.join(fx.memoryDir, `${fb.note.id}.md`), 'utf8'));
    expect(onDisk.ok && onDisk.note).toMatchObject({
      id: fb.note.id,
      type: 'feedback',
      tags: ['design', 'UI'],
    });
    expect(await fs.readdir(fx.userDir)).toHaveLength(2);
  });

  it('remember: returns related notes, a probable duplicate and links to notes not written yet', async () => {
    const fx = await fixture();
    const { notes } = await fx.open();
    await notes.remember({
      id: 'pricing-layout',
      summary: 'Pricing page layout uses cards with fills',
      tags: 'pricing design',
      body: 'Cards.',
    });
    await notes.remember({ id: 'user-pref', summary: 'Prefers short answers', type: 'user', body: '' });
    const r = await notes.remember({
      summary: 'Pricing page layout uses cards with fills',
      tags: 'pricing design',
      body: 'Cards. See [[pricing-layout]], [[user-pref]] and [[future-note]].',
    });
    expect(r.related[0]).toMatchObject({ id: 'pricing-layout', scope: 'project' });
    expect(r.duplicateOf?.id).toBe('pricing-layout');
    expect(r.danglingLinks).toEqual(['future-note']);
  });

  it('refuses credential-looking content with the reason, and writes nothing', async () => {
    const fx = await fixture();
    const { notes } = await fx.open();
    const cases: Array<[Record<string, string>, RegExp]> = [
      [
        { body: 'use sk-proj-abcdefghijklmnopqrstuvwxyz0123 for the API' },
        /the body looks like it contains an API key \(sk-…\)/,
      ],
      [{ body: 'token ghp_abcdefghijklmnopqrstuvwxyz0123456789' }, /a GitHub token/i],
      [{ body: 'AWS AKIAQ3EGRTY5PZ7K2LMN key' }, /AWS/],
      [{ body: 'slack xoxb-123456789012-abcdefghij' }, /a Slack token/i],
      [
        {
          body: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
        },
        /JSON Web Token|JWT/i,
      ],
      [
        {
          body: '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----',
        },
        /private key/i,
      ],
      [{ body: 'db: password = "hunter2hunter2"' }, /a password or secret in an assignment/],
      [{ summary: 'API_KEY=abcd1234efgh' }, /the summary looks like/],
    ];
    for (const [fields, reason] of cases) {
      const err = await rejection(notes.remember({ summary: 'a summary', body: 'b', ...fields }));
      expect(err.code).toBe('refused');
      expect(err.message).toMatch(reason);
      expect(err.message).toMatch(/credentials are refused/);
    }
    expect(await snapshot(fx.memoryDir)).toEqual({});
    // Words about passwords are fine.
    await notes.remember({
      summary: 'Password reset flow',
      body: 'The password field must be 12+ chars; token: string in the type.',
    });
  });

  it('refuses bad ids and ids equal to an existing one ignoring case', async () => {
    const fx = await fixture();
    const { notes } = await fx.open();
    await notes.remember({ id: 'Team-Style', summary: 's', body: '' });
    expect((await rejection(notes.remember({ id: '../etc/passwd', summary: 's', body: '' }))).code).toBe(
      'invalid_input',
    );
    expect((await rejection(notes.remember({ id: 'aux', summary: 's', body: '' }))).message).toMatch(
      /reserved file name/,
    );
    const dup = await rejection(notes.remember({ id: 'team-style', summary: 's', body: '' }));
    expect(dup.code).toBe('conflict');
    expect(dup.message).toMatch(/"Team-Style" already exists .* ignoring case/);
    expect(await fs.readdir(fx.memoryDir)).toEqual(['Team-Style.md']);
  });

  it('edit: changes only the given fields, keeps createdAt and unknown frontmatter keys, removes the type with null', async () => {
    const fx = await fixture();
    await writeNoteFile(fx.memoryDir, {
      ...note('e', { type: 'project', tags: ['a'] }),
      extra: { agent: 'claude', rank: 3 },
    });
    const { notes } = await fx.open();
    fx.clock.advance(1000);
    const edited = await notes.edit({ id: 'e', summary: 'new summary', tags: 'b, c', type: null });
    expect(edited).toMatchObject({
      summary: 'new summary',
      tags: ['b', 'c'],
      body: 'body of e\n',
      createdAt: 1_780_000_000_000,
      updatedAt: fx.clock.now(),
    });
    expect(edited.type).toBeUndefined();
    const raw = await fs.readFile(path.join(fx.memoryDir, 'e.md'), 'utf8');
    expect(raw).toContain('"agent":"claude"');
    expect(raw).not.toContain('"type"');
  });

  it('edit: refused as a conflict when the note changed since it was read (baseHash or on disk)', async () => {
    const fx = await fixture();
    const { notes } = await fx.open();
    const r = await notes.remember({ id: 'c1', summary: 's', body: 'v1' });
    const stale = await rejection(notes.edit({ id: 'c1', body: 'mine', baseHash: 'not-the-hash' }));
    expect(stale.code).toBe('conflict');
    await fs.writeFile(
      path.join(fx.memoryDir, 'c1.md'),
      serializeNote({ ...r.note, body: 'agent wrote this' }),
    );
    const onDisk = await rejection(notes.edit({ id: 'c1', body: 'mine', baseHash: r.note.hash }));
    expect(onDisk.message).toMatch(/changed on disk/);
    expect(await fs.readFile(path.join(fx.memoryDir, 'c1.md'), 'utf8')).toContain('agent wrote this');
    expect((await rejection(notes.edit({ id: 'c1', body: 'x sk-abcdefghijklmnopqrstuvwxyz' }))).code).toBe(
      'refused',
    );
  });

  it('forget: backs the note up first, then deletes it; not_found for unknown ids', async () => {
    const fx = await fixture();
    const { core, notes } = await fx.open();
    const r = await notes.remember({ id: 'gone', summary: 'to forget', body: 'b' });
    const raw = await fs.readFile(r.note.path, 'utf8');
    const out = await notes.forget({ id: 'GONE' });
    expect(out).toMatchObject({ id: 'gone', scope: 'project' });
    expect(await fs.readdir(fx.memoryDir)).toEqual([]);
    const b = await core.user.backups.get(out.backupId);
    expect(b.content).toBe(raw);
    expect(b.entry).toMatchObject({
      reason: 'forget',
      originDir: fx.memoryDir,
      noteId: 'gone',
      summary: 'to forget',
    });
    const nf = await rejection(notes.forget({ id: 'gone' }));
    expect(nf.code).toBe('not_found');
  });

  it('links resolve in the project first, then the user scope; dangling links are kept; backlinks', async () => {
    const fx = await fixture();
    await writeNoteFile(fx.memoryDir, note('shared-id', { summary: 'project version' }));
    await writeNoteFile(fx.userDir, note('shared-id', { summary: 'user version' }));
    await writeNoteFile(fx.userDir, note('only-user'));
    await writeNoteFile(
      fx.memoryDir,
      note('linker', { body: '[[shared-id]] [[only-user]] [[nowhere]] [[new:1]]' }),
    );
    await writeNoteFile(fx.userDir, note('user-linker', { body: 'also [[shared-id]]' }));
    const { core } = await fx.open();
    const linker = core.store('project')!.get('linker')!;
    expect(linker.links).toEqual(['shared-id', 'only-user', 'nowhere']);
    expect(linker.links.map((l) => core.resolveLink(l)?.scope ?? null)).toEqual(['project', 'user', null]);
    expect(
      core
        .backlinks('project', 'shared-id')
        .map((n) => n.id)
        .sort(),
    ).toEqual(['linker', 'user-linker']);
    expect(core.backlinks('user', 'shared-id')).toEqual([]);
    expect(core.backlinks('user', 'only-user').map((n) => n.id)).toEqual(['linker']);
    // Links are never stored: the file holds only what was written.
    expect(await fs.readFile(linker.path, 'utf8')).not.toContain('"links"');
  });

  it('the watcher picks up external edits, additions and deletions and emits notes.changed', async () => {
    const fx = await fixture();
    await fs.mkdir(fx.memoryDir, { recursive: true });
    const { core } = await fx.open({ watch: true });
    await writeNoteFile(fx.memoryDir, note('from-agent'));
    await until(() => core.store('project')!.get('from-agent') !== undefined);
    await until(() =>
      fx.events.some(
        (e) => e.type === 'notes.changed' && e.scope === 'project' && e.ids.includes('from-agent'),
      ),
    );
    await fs.writeFile(
      path.join(fx.memoryDir, 'from-agent.md'),
      serializeNote(note('from-agent', { summary: 'edited in vim' })),
    );
    await until(() => core.store('project')!.get('from-agent')?.summary === 'edited in vim');
    await fs.writeFile(path.join(fx.memoryDir, 'broken.md'), 'oops');
    await until(() => core.warnings().some((w) => w.path?.endsWith('broken.md') === true));
    fx.events.length = 0;
    await fs.rm(path.join(fx.memoryDir, 'from-agent.md'));
    await until(() => core.store('project')!.get('from-agent') === undefined);
    await until(() => fx.events.some((e) => e.type === 'notes.changed' && e.ids.includes('from-agent')));
    // The search index follows the store.
    expect(core.search().search('edited vim')).toEqual([]);
    await core.close();
  });

  it('starts watching a project directory created by the first write', async () => {
    const fx = await fixture();
    const { core, notes } = await fx.open({ watch: true });
    await notes.remember({ id: 'first', summary: 'creates MEMORY/', body: '' });
    await writeNoteFile(fx.memoryDir, note('external'));
    await until(() => core.store('project')!.get('external') !== undefined);
    await core.close();
  });

  it('a file another process put in the directory before our first write is picked up when the watcher starts', async () => {
    const fx = await fixture();
    const { core, notes } = await fx.open({ watch: true });
    // MEMORY/ did not exist at load, so no watcher runs: this file raises no event anyone hears.
    await writeNoteFile(fx.memoryDir, note('early'));
    await notes.remember({ id: 'first', summary: 'starts the watcher', body: '' });
    await until(() => core.store('project')!.get('early') !== undefined);
    expect(core.store('project')!.get('first')).toBeDefined();
    await core.close();
  });

  it('emits warnings.changed when a malformed file appears and again when it is fixed', async () => {
    const fx = await fixture();
    await writeNoteFile(fx.memoryDir, note('good'));
    const { core } = await fx.open({ watch: true });
    const bad = path.join(fx.memoryDir, 'bad.md');
    await fs.writeFile(bad, 'no frontmatter here\n');
    await until(() => fx.events.some((e) => e.type === 'warnings.changed'));
    expect(core.warnings().map((w) => [w.code, w.path])).toContainEqual(['unreadable_note', bad]);
    // Only warnings changed: no note was added or removed.
    expect(fx.events.filter((e) => e.type === 'notes.changed')).toEqual([]);
    const count = fx.events.filter((e) => e.type === 'warnings.changed').length;
    await writeNoteFile(fx.memoryDir, note('bad'));
    await until(() => core.store('project')!.get('bad') !== undefined);
    await until(() => fx.events.filter((e) => e.type === 'warnings.changed').length > count);
    expect(core.warnings().filter((w) => w.path === bad)).toEqual([]);
    await core.close();
  });

  it('a watching core builds its search index in the background; mid-build and after, it answers like one built on first use', async () => {
    const fx = await fixture();
    const words = [
      'pricing',
      'card',
      'border',
      'fill',
      'cache',
      'deploy',
      'review',
      'merge',
      'latency',
      'sync',
    ];
    for (let i = 0; i < 450; i++) {
      const w = (k: number) => words[(i * 7 + k * 3) % words.length]!;
      await writeNoteFile(
        fx.memoryDir,
        note(`n${i}`, { summary: `${w(0)} ${w(1)} note ${i}`, body: `${w(2)} ${w(3)} ${w(4)}\n` }),
      );
    }
    const plain = await fx.open();
    const watching = await fx.open({ watch: true });
    const query = 'pricing card border';
    const expected = plain.core.search().search(query, { limit: 20 });
    // Right after opening (the background build has at most started): the rest is indexed at once.
    expect(watching.core.search().search(query, { limit: 20 })).toEqual(expected);
    const other = await fx.open({ watch: true });
    await new Promise((r) => setTimeout(r, 50)); // let some slices run
    await other.notes.forget({ id: 'n3' });
    const draft = { summary: 'pricing card border', tags: [], body: 'fill cache' };
    const fresh = await fx.open();
    expect(other.core.search().related(draft, { limit: 5 })).toEqual(
      fresh.core.search().related(draft, { limit: 5 }),
    );
    expect(other.core.search().has('project', 'n3')).toBe(false);
    for (const c of [plain.core, watching.core, other.core, fresh.core]) await c.close();
  });

  it('own writes emit notes.changed too (the UI refreshes after a CLI-less edit)', async () => {
    const fx = await fixture();
    const { notes } = await fx.open();
    const r = await notes.remember({ summary: 'event check', body: '' });
    expect(fx.events).toContainEqual({ type: 'notes.changed', scope: 'project', ids: [r.note.id] });
  });
});

describe('remember into a full scope: each scope by its own limit', () => {
  // The user scope's limit is the user config's (a project's config never limits the person's own
  // notes); the project scope's is the layered one. Project limits below and above the user's 4.
  it.each([2, 9])('user config maxNotes 4, project config maxNotes %i', async (projectMax) => {
    const fx = await fixture();
    await fs.mkdir(fx.home, { recursive: true });
    await fs.writeFile(path.join(fx.home, 'config.json'), JSON.stringify({ memory: { maxNotes: 4 } }));
    await fs.mkdir(path.join(fx.root, '.oharness'), { recursive: true });
    await fs.writeFile(
      path.join(fx.root, '.oharness', 'config.json'),
      JSON.stringify({ memory: { maxNotes: projectMax } }),
    );
    for (let i = 0; i < 3; i++) await writeNoteFile(fx.userDir, note(`u${i}`));
    for (let i = 0; i < projectMax; i++) await writeNoteFile(fx.memoryDir, note(`p${i}`));
    const { core, notes } = await fx.open();

    // 3 user notes: under the user limit (and above the project's 2): accepted.
    const fourth = await notes.remember({ summary: 'Fourth of mine', body: 'x', scope: 'user' });
    expect(fourth.note.scope).toBe('user');
    expect(await fs.readdir(fx.userDir)).toHaveLength(4);

    // 4 user notes: full at the user limit, refused naming it (not the project's number).
    const full = await rejection(notes.remember({ summary: 'Fifth of mine', body: 'x', scope: 'user' }));
    expect(full.code).toBe('limit_exceeded');
    expect(full.message).toBe(
      'the user scope already holds 4 notes (memory.maxNotes is 4); remove some before adding new ones',
    );
    expect(await fs.readdir(fx.userDir)).toHaveLength(4);

    // The project scope, full at the project's limit, still names the project's number.
    const project = await rejection(notes.remember({ summary: 'One more', body: 'x', scope: 'project' }));
    expect(project.message).toBe(
      `the project scope already holds ${projectMax} notes (memory.maxNotes is ${projectMax}); remove some before adding new ones`,
    );
    await core.close();
  });
});
