import { describe, expect, it } from 'vitest';
import type { NoteDetail, NoteSummary } from '../../shared/api/notes.js';
import { registerCommand, runCommand } from '../../renderer/app/commands.js';
import { detectLocale } from '../../renderer/i18n/index.js';
import { en } from '../../renderer/i18n/en.js';
import { zh } from '../../renderer/i18n/zh.js';
import { createDraftStore, EMPTY_NEW_NOTE } from '../../renderer/state/draft-store.js';
import { createEditorStore, isDirty } from '../../renderer/state/editor-store.js';
import { exactIdFirst, filterAndSort, hitRow } from '../../renderer/state/note-list.js';
import { createUiStore } from '../../renderer/state/ui-store.js';

function detail(over: Partial<NoteDetail> = {}): NoteDetail {
  return {
    id: 'n1',
    scope: 'project',
    summary: 'Summary',
    type: 'project',
    tags: ['a', 'b'],
    createdAt: 1,
    updatedAt: 2,
    hash: 'h1',
    body: 'body\n',
    links: [],
    backlinks: [],
    recallCount: 0,
    lastRecalledAt: null,
    ...over,
  };
}

describe('editor store', () => {
  it('replaces a clean draft with each version from the core', () => {
    const s = createEditorStore();
    s.getState().receive(detail());
    expect(isDirty(s.getState())).toBe(false);
    s.getState().receive(detail({ hash: 'h2', body: 'new on disk\n' }));
    expect(s.getState().draft?.body).toBe('new on disk\n');
    expect(s.getState().diskVersion).toBeNull();
  });

  it('holds back a disk version while the draft is dirty, then lets the person choose', () => {
    const s = createEditorStore();
    s.getState().receive(detail());
    s.getState().setField('body', 'my edit\n');
    expect(isDirty(s.getState())).toBe(true);
    s.getState().receive(detail({ hash: 'h2', body: 'agent edit\n' }));
    expect(s.getState().draft?.body).toBe('my edit\n');
    expect(s.getState().diskVersion?.hash).toBe('h2');

    // Keep mine: the draft now builds on the disk version (its hash is the next save's baseHash).
    s.getState().keepMine();
    expect(s.getState().base?.hash).toBe('h2');
    expect(s.getState().draft?.body).toBe('my edit\n');
    expect(isDirty(s.getState())).toBe(true);

    s.getState().receive(detail({ hash: 'h3', body: 'agent again\n' }));
    s.getState().takeDisk();
    expect(s.getState().draft?.body).toBe('agent again\n');
    expect(isDirty(s.getState())).toBe(false);
  });

  it('does not ask when the disk version equals the draft, nor for a refresh of the same hash', () => {
    const s = createEditorStore();
    s.getState().receive(detail());
    s.getState().setField('summary', 'Changed');
    s.getState().receive(detail({ recallCount: 3 }));
    expect(s.getState().diskVersion).toBeNull();
    expect(s.getState().base?.recallCount).toBe(3);
    s.getState().receive(detail({ hash: 'h9', summary: 'Changed' }));
    expect(s.getState().diskVersion).toBeNull();
    expect(isDirty(s.getState())).toBe(false);
  });

  it('treats tags that differ only in separators as unchanged', () => {
    const s = createEditorStore();
    s.getState().receive(detail());
    s.getState().setField('tags', 'a  b');
    expect(isDirty(s.getState())).toBe(false);
    s.getState().setField('tags', 'a, c');
    expect(isDirty(s.getState())).toBe(true);
  });

  it('opening another note starts from that note', () => {
    const s = createEditorStore();
    s.getState().receive(detail());
    s.getState().setField('body', 'dirty\n');
    s.getState().receive(detail({ id: 'n2', hash: 'x' }));
    expect(s.getState().base?.id).toBe('n2');
    expect(s.getState().diskVersion).toBeNull();
  });
});

describe('kept drafts', () => {
  it('keeps a dirty draft per note across switching notes, until saved or discarded', () => {
    const drafts = createDraftStore('test.drafts.1');
    const s = createEditorStore(drafts);
    s.getState().receive(detail());
    s.getState().setField('body', 'half written\n');
    expect(drafts.getState().notes['project:n1']).toEqual({
      fields: expect.objectContaining({ body: 'half written\n' }),
      baseHash: 'h1',
    });
    // Another note opens: the first one's draft stays kept and comes back when it is reopened.
    s.getState().close();
    s.getState().receive(detail({ id: 'n2', hash: 'x' }));
    expect(isDirty(s.getState())).toBe(false);
    s.getState().close();
    s.getState().receive(detail());
    expect(s.getState().draft?.body).toBe('half written\n');
    expect(s.getState().diskVersion).toBeNull();
    s.getState().discard();
    expect(s.getState().draft?.body).toBe('body\n');
    expect(drafts.getState().notes['project:n1']).toBeUndefined();
  });

  it('holds back a version that changed on disk since the kept draft began', () => {
    const drafts = createDraftStore('test.drafts.2');
    const s = createEditorStore(drafts);
    s.getState().receive(detail());
    s.getState().setField('summary', 'mine');
    s.getState().close();
    s.getState().receive(detail({ hash: 'h2', body: 'an agent wrote this\n' }));
    expect(s.getState().draft?.summary).toBe('mine');
    expect(s.getState().diskVersion?.hash).toBe('h2');
    // Still remembered against the version the draft began from.
    expect(drafts.getState().notes['project:n1']?.baseHash).toBe('h1');
    s.getState().keepMine();
    expect(drafts.getState().notes['project:n1']?.baseHash).toBe('h2');
    s.getState().saved(detail({ hash: 'h3', summary: 'mine', body: 'an agent wrote this\n' }));
    expect(drafts.getState().notes['project:n1']).toBeUndefined();
  });

  it('keeps the new-note form only while something is typed in it', () => {
    const drafts = createDraftStore('test.drafts.3');
    drafts.getState().setNewNote({ ...EMPTY_NEW_NOTE, summary: 'started' });
    expect(drafts.getState().newNote?.summary).toBe('started');
    drafts.getState().setNewNote({ ...EMPTY_NEW_NOTE });
    expect(drafts.getState().newNote).toBeNull();
  });
});

describe('ui store', () => {
  it('switches to relevance while searching and back after', () => {
    const ui = createUiStore();
    ui.getState().setQuery('pricing');
    expect(ui.getState().sort).toBe('relevance');
    ui.getState().setQuery('');
    expect(ui.getState().sort).toBe('updated');
    ui.getState().setSort('summary');
    ui.getState().setQuery('x');
    expect(ui.getState().sort).toBe('summary');
  });

  it('drops a selection outside the chosen scope', () => {
    const ui = createUiStore();
    ui.getState().select({ kind: 'note', id: 'a', scope: 'user' });
    ui.getState().setScope('both');
    expect(ui.getState().selection).not.toBeNull();
    ui.getState().setScope('project');
    expect(ui.getState().selection).toBeNull();
  });
});

describe('note list', () => {
  const notes: NoteSummary[] = [
    {
      id: 'a',
      scope: 'project',
      summary: 'Beta',
      type: 'feedback',
      tags: ['x'],
      createdAt: 3,
      updatedAt: 10,
      hash: '1',
    },
    {
      id: 'b',
      scope: 'user',
      summary: 'alpha',
      type: 'user',
      tags: ['x', 'y'],
      createdAt: 5,
      updatedAt: 5,
      hash: '2',
    },
    { id: 'c', scope: 'project', summary: 'Gamma', tags: ['Y'], createdAt: 1, updatedAt: 20, hash: '3' },
  ];
  it('filters by type (including untyped) and tag, and sorts', () => {
    expect(
      filterAndSort(notes, { typeFilter: 'all', tagFilter: '', sort: 'updated' }).map((n) => n.id),
    ).toEqual(['c', 'a', 'b']);
    expect(
      filterAndSort(notes, { typeFilter: 'all', tagFilter: '', sort: 'created' }).map((n) => n.id),
    ).toEqual(['b', 'a', 'c']);
    expect(
      filterAndSort(notes, { typeFilter: 'all', tagFilter: '', sort: 'summary' }).map((n) => n.id),
    ).toEqual(['b', 'a', 'c']);
    expect(
      filterAndSort(notes, { typeFilter: 'none', tagFilter: '', sort: 'updated' }).map((n) => n.id),
    ).toEqual(['c']);
    expect(
      filterAndSort(notes, { typeFilter: 'user', tagFilter: '', sort: 'updated' }).map((n) => n.id),
    ).toEqual(['b']);
    expect(
      filterAndSort(notes, { typeFilter: 'all', tagFilter: 'y', sort: 'updated' }).map((n) => n.id),
    ).toEqual(['c', 'b']);
  });
  it('turns search hits carrying the list fields into rows; filters apply; relevance order; an exact id first', () => {
    const why = {
      matched: { summary: [], tags: [], body: [] },
      parts: { summary: 0, tags: 0, body: 0, usage: 0 },
    };
    const rows = [
      { id: 'c', scope: 'project' as const, summary: 'Gamma', score: 2, why, tags: ['Y'], updatedAt: 20 },
      {
        id: 'b',
        scope: 'user' as const,
        summary: 'alpha',
        score: 1,
        why,
        type: 'user' as const,
        tags: ['x', 'y'],
      },
      { id: 'a', scope: 'project' as const, summary: 'Beta', score: 3, why },
    ].map((h) => hitRow(h));
    expect(rows[1]).toMatchObject({ type: 'user', tags: ['x', 'y'], why, createdAt: 0 });
    expect(
      filterAndSort(rows, { typeFilter: 'all', tagFilter: '', sort: 'relevance' }).map((r) => r.id),
    ).toEqual(['a', 'c', 'b']);
    expect(
      filterAndSort(rows, { typeFilter: 'all', tagFilter: 'y', sort: 'relevance' }).map((r) => r.id),
    ).toEqual(['c', 'b']);
    expect(exactIdFirst(rows, ' B ').map((r) => r.id)).toEqual(['b', 'c', 'a']);
  });
});

describe('i18n', () => {
  it('follows a stored choice, else the OS/browser languages', () => {
    expect(detectLocale('zh', ['en-US'])).toBe('zh');
    expect(detectLocale(null, ['zh-CN', 'en'])).toBe('zh');
    expect(detectLocale(null, ['de-DE', 'en-GB'])).toBe('en');
    expect(detectLocale(null, ['fr'])).toBe('en');
  });
  it('has the seed terms verbatim and the same keys in both languages', () => {
    const text = JSON.stringify(zh);
    for (const term of ['待整理', '关闭云同步', '立即同步', '生成合并建议', '手动合并'])
      expect(text).toContain(term);
    const keys = (o: object, p = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) =>
        v && typeof v === 'object' ? keys(v, `${p}${k}.`) : [`${p}${k}`],
      );
    expect(keys(zh).sort()).toEqual(keys(en).sort());
  });
});

describe('commands', () => {
  it('runs the latest registration and reports when nothing handles a command', () => {
    const calls: string[] = [];
    const off1 = registerCommand('find', () => calls.push('first'));
    const off2 = registerCommand('find', () => calls.push('second'));
    expect(runCommand('find')).toBe(true);
    off2();
    runCommand('find');
    off1();
    expect(runCommand('find')).toBe(false);
    expect(calls).toEqual(['second', 'first']);
  });
});
