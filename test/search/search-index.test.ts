import { describe, expect, it } from 'vitest';
import { SearchHitSchema } from '../../shared/api/notes.js';
import { SearchIndex, FIELD_WEIGHTS } from '../../electron/memory/search/index.js';
import { doc, sumParts } from './helpers.js';

function ids(hits: { id: string }[]): string[] {
  return hits.map((h) => h.id);
}

describe('SearchIndex.search', () => {
  it('finds inflected forms: "merging" finds a note about "merge"', () => {
    const index = new SearchIndex([
      doc('git-merge', { summary: 'How we merge branches', tags: ['git'] }),
      doc('unrelated', { summary: 'Pricing cards use fills' }),
    ]);
    const hits = index.search('merging');
    expect(ids(hits)).toEqual(['git-merge']);
    expect(hits[0]!.why.matched.summary).toEqual(['merg']);
  });

  it('matches CJK text through bigrams, in the query and in notes', () => {
    const index = new SearchIndex([
      doc('zh', { summary: '部署前先做数据库迁移', tags: ['database'] }),
      doc('ja', { summary: 'データベースのバックアップ' }),
      doc('en', { summary: 'Database backups' }),
    ]);
    expect(ids(index.search('数据库'))).toEqual(['zh']);
    expect(ids(index.search('迁移数据库'))).toEqual(['zh']);
    expect(ids(index.search('バックアップ'))).toEqual(['ja']);
    expect(ids(index.search('database'))).toEqual(expect.arrayContaining(['zh', 'en']));
  });

  it('widens a one-character CJK query to the bigrams containing it (search only, not recall)', () => {
    const index = new SearchIndex([doc('cat', { summary: '我的猫咪喜欢鱼' }), doc('dog', { summary: '狗' })]);
    const hits = index.search('猫');
    expect(ids(hits)).toEqual(['cat']);
    // Widened in code-unit order, whatever order the notes were indexed in.
    expect(hits[0]!.why.matched.summary).toEqual(['猫咪', '的猫']);
    expect(ids(index.search('狗'))).toEqual(['dog']);
    expect(index.recall('猫').notes).toEqual([]);
    index.remove('project', 'cat');
    expect(index.search('猫')).toEqual([]);
  });

  it('weighs summary and tags over body', () => {
    const filler = 'some words about other things entirely';
    const index = new SearchIndex([
      doc('in-body', { summary: 'Release checklist', body: `${filler} caching ${filler}` }),
      doc('in-summary', { summary: 'Caching rules', body: filler }),
      doc('in-tags', { summary: 'Rules for the edge', tags: ['caching'], body: filler }),
    ]);
    const hits = index.search('caching');
    expect(ids(hits).slice(0, 2).sort()).toEqual(['in-summary', 'in-tags']);
    expect(hits[2]!.id).toBe('in-body');
    expect(hits[2]!.score).toBeLessThan(hits[0]!.score / 2);
    expect(FIELD_WEIGHTS.summary).toBeGreaterThan(FIELD_WEIGHTS.body);
  });

  it('explains every hit: matched terms per field, parts that sum to the score, valid API shape', () => {
    const index = new SearchIndex([
      doc('a', {
        summary: 'Deploy the billing service',
        tags: ['release'],
        body: 'Deploying needs a green build.',
      }),
      doc('b', { summary: 'Billing emails', body: 'Sent after each deploy.' }),
    ]);
    const hits = index.search('deploying billing release');
    expect(hits.length).toBe(2);
    for (const hit of hits) {
      expect(SearchHitSchema.parse(hit)).toEqual(hit);
      expect(hit.score).toBe(sumParts(hit.why.parts));
    }
    const a = hits.find((h) => h.id === 'a')!;
    expect(a.why.matched).toEqual({ summary: ['deploi', 'bill'], tags: ['releas'], body: ['deploi'] });
    expect(a.why.parts.usage).toBe(0);
  });

  it('filters by scope and honours the limit', () => {
    const index = new SearchIndex([
      doc('p1', { summary: 'font sizes' }),
      doc('p2', { summary: 'font weights' }),
      doc('u1', { scope: 'user', summary: 'font I like' }),
    ]);
    expect(ids(index.search('font', { scope: 'user' }))).toEqual(['u1']);
    expect(index.search('font', { scope: 'project' }).every((h) => h.scope === 'project')).toBe(true);
    expect(index.search('font', { limit: 2 })).toHaveLength(2);
    expect(index.search('font', { limit: 0 })).toEqual([]);
    expect(index.search('')).toEqual([]);
    expect(index.search('the and of')).toEqual([]);
  });

  it('keeps the same id in both scopes apart', () => {
    const index = new SearchIndex([
      doc('style', { summary: 'Tabs for indentation' }),
      doc('style', { scope: 'user', summary: 'Indentation with spaces' }),
    ]);
    expect(index.size).toBe(2);
    expect(
      index
        .search('indentation')
        .map((h) => h.scope)
        .sort(),
    ).toEqual(['project', 'user']);
    expect(index.resolveLink('style')?.scope).toBe('project');
    index.remove('project', 'style');
    expect(index.resolveLink('STYLE')?.scope).toBe('user');
  });

  it('is incremental: an update replaces the old terms, a removal takes the note out', () => {
    const index = new SearchIndex([
      doc('n', { summary: 'Queue retries use backoff' }),
      doc('m', { summary: 'Queue sizes' }),
    ]);
    expect(ids(index.search('backoff'))).toEqual(['n']);
    index.upsert(doc('n', { summary: 'Queue retries are capped at five' }));
    expect(index.search('backoff')).toEqual([]);
    expect(ids(index.search('capped'))).toEqual(['n']);
    expect(index.size).toBe(2);
    expect(index.remove('project', 'n')).toBe(true);
    expect(index.remove('project', 'n')).toBe(false);
    expect(ids(index.search('queue'))).toEqual(['m']);
    expect(index.has('project', 'n')).toBe(false);
    index.clear();
    expect(index.size).toBe(0);
    expect(index.search('queue')).toEqual([]);
  });

  it('breaks score ties by the most recently updated note', () => {
    const index = new SearchIndex([
      doc('old', { summary: 'lint rules', updatedAt: 1 }),
      doc('new', { summary: 'lint rules', updatedAt: 2 }),
    ]);
    expect(ids(index.search('lint'))).toEqual(['new', 'old']);
  });

  it('lets usage nudge close matches but never by more than 10%', () => {
    const index = new SearchIndex([
      doc('a', { summary: 'color tokens', updatedAt: 2 }),
      doc('b', { summary: 'color tokens', updatedAt: 1 }),
    ]);
    const usage = new Map([['project:b', 1_000_000]]);
    const hits = index.search('color', { usage });
    expect(ids(hits)).toEqual(['b', 'a']);
    const b = hits[0]!;
    expect(b.why.parts.usage).toBeGreaterThan(0);
    expect(b.why.parts.usage).toBeLessThanOrEqual(0.1 * (b.score - b.why.parts.usage) + 1e-12);
    expect(b.score).toBe(sumParts(b.why.parts));
  });
});

describe('SearchIndex.related and duplicates', () => {
  const notes = [
    doc('pnpm', {
      summary: 'Use pnpm, not npm, in this repository',
      tags: ['package-manager', 'pnpm'],
      body: 'The lockfile is pnpm-lock.yaml; npm install breaks the workspace links.',
    }),
    doc('ci', {
      summary: 'CI runs on every push',
      tags: ['ci'],
      body: 'GitHub Actions, two jobs: lint and test.',
    }),
    doc('fonts', {
      summary: 'Headings use Inter',
      tags: ['design', 'typography'],
      body: 'Body text uses system fonts.',
    }),
  ];

  it('flags a re-worded copy as a probable duplicate and lists it first', () => {
    const index = new SearchIndex(notes);
    const result = index.related({
      summary: 'Using pnpm instead of npm in this repository',
      tags: ['pnpm', 'package-manager'],
      body: 'The lockfile is pnpm-lock.yaml; npm install breaks the workspace links.',
    });
    expect(result.duplicateOf?.id).toBe('pnpm');
    expect(result.duplicateOf!.similarity).toBeGreaterThanOrEqual(0.7);
    expect(result.related[0]!.id).toBe('pnpm');
  });

  it('lists related notes without calling them duplicates', () => {
    const index = new SearchIndex(notes);
    const result = index.related({
      summary: 'CI also checks pnpm lockfile freshness',
      tags: ['ci'],
      body: '',
    });
    expect(ids(result.related)).toEqual(expect.arrayContaining(['ci', 'pnpm']));
    expect(result.duplicateOf).toBeNull();
  });

  it('leaves out the note itself when asked (editing an indexed note)', () => {
    const index = new SearchIndex(notes);
    const self = notes[0]!;
    const result = index.related(self, { exclude: { scope: 'project', id: 'pnpm' } });
    expect(ids(result.related)).not.toContain('pnpm');
    expect(index.similarity(self, 'project', 'pnpm')).toBeCloseTo(1, 10);
    expect(index.similarity(self, 'project', 'missing')).toBe(0);
  });
});
