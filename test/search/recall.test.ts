import { describe, expect, it } from 'vitest';
import { SearchIndex, recall, RECALL_DEFAULTS } from '../../electron/memory/search/index.js';
import { doc, sumParts } from './helpers.js';

const ids = (hits: { id: string }[]) => hits.map((h) => h.id);

describe('recall', () => {
  it('attaches only notes that match in their summary or tags', () => {
    const index = new SearchIndex([
      doc('body-only', { summary: 'Cluster notes', body: 'kubernetes kubernetes kubernetes upgrade path' }),
      doc('in-tags', { summary: 'Cluster upgrades', tags: ['kubernetes'] }),
    ]);
    expect(ids(index.search('kubernetes'))).toContain('body-only');
    const r = index.recall('How do we upgrade kubernetes?');
    expect(ids(r.notes)).toEqual(['in-tags']);
    expect(r.notes[0]!.why.matched.tags).toEqual(['kubernet']);
  });

  it('with semantic matches: reorders the notes that qualify by words, never attaches one that shares no word', () => {
    const index = new SearchIndex([
      doc('words', { summary: 'Kubernetes upgrade order' }),
      doc('close', { summary: 'Kubernetes upgrade notes' }),
      doc('meaning-only', { summary: 'Container orchestration plan' }),
    ]);
    const lexical = ids(index.recall('kubernetes upgrade').notes);
    expect(lexical.sort()).toEqual(['close', 'words']);
    const second = ids(index.recall('kubernetes upgrade').notes)[1]!;
    const semantic = [
      { scope: 'project' as const, id: 'meaning-only', similarity: 0.99 },
      { scope: 'project' as const, id: second, similarity: 0.95 },
      { scope: 'project' as const, id: 'elsewhere', similarity: 0.1 },
    ];
    const r = index.recall('kubernetes upgrade', { semantic });
    // The note closest in meaning but sharing no word stays out; meaning reorders the equal word matches.
    expect(ids(r.notes).sort()).toEqual(lexical);
    expect(ids(r.notes)[0]).toBe(second);
    expect(r.notes[0]!.why.semantic).toEqual({ similarity: 0.95, rank: 2 });
    expect(r.notes[0]!.why.parts.semantic).toBeGreaterThan(0);
    for (const n of r.notes) expect(n.score).toBe(sumParts(n.why.parts));
    expect(index.recall('orchestration of containers?', { semantic }).notes.map((n) => n.id)).toEqual([
      'meaning-only',
    ]);
    expect(index.recall('what should we do next', { semantic })).toEqual({ notes: [], linked: [], text: '' });
  });

  it('attaches nothing below minScore, and nothing for a message that matches nothing (the common case)', () => {
    const index = new SearchIndex([doc('k8s', { summary: 'Kubernetes cluster layout' })]);
    const r = index.recall('kubernetes');
    expect(ids(r.notes)).toEqual(['k8s']);
    expect(r.notes[0]!.score).toBeGreaterThanOrEqual(RECALL_DEFAULTS.minScore);
    expect(index.recall('kubernetes', { minScore: r.notes[0]!.score + 0.01 })).toEqual({
      notes: [],
      linked: [],
      text: '',
    });
    expect(index.recall('what time is it?')).toEqual({ notes: [], linked: [], text: '' });
    expect(index.recall('')).toEqual({ notes: [], linked: [], text: '' });
  });

  it('attaches at most perTurn notes, best first', () => {
    const index = new SearchIndex(
      ['a', 'b', 'c', 'd', 'e'].map((id, i) =>
        doc(id, { summary: `Logging rule ${id}`, tags: i === 0 ? ['logging'] : [] }),
      ),
    );
    // "logging" alone is in every note of this store, so it does not reach minScore by itself.
    expect(index.recall('logging').notes).toEqual([]);
    expect(index.recall('logging rules').notes).toHaveLength(RECALL_DEFAULTS.perTurn);
    const two = index.recall('logging rules', { perTurn: 2 });
    expect(ids(two.notes)).toHaveLength(2);
    expect(two.notes[0]!.id).toBe('a');
    expect(index.recall('logging rules', { perTurn: 0 }).notes).toEqual([]);
  });

  it('keeps the attached notes within budgetChars, clipping a body rather than the summary', () => {
    const long = 'Details of the payment retry policy. '.repeat(40); // ~1480 characters
    const index = new SearchIndex([
      doc('p1', { summary: 'Payment retries one', body: long }),
      doc('p2', { summary: 'Payment retries two', body: long }),
      doc('p3', { summary: 'Payment retries three', body: long }),
    ]);
    const r = index.recall('payment retries', { budgetChars: 2000 });
    const blocks = r.text.match(/<note [\s\S]*?<\/note>\n/g) ?? [];
    expect(blocks).toHaveLength(2);
    expect(blocks.join('').length).toBeLessThanOrEqual(2000);
    expect(blocks[1]).toContain('(clipped; read the whole note with the memory tool)');
    for (const n of r.notes) expect(r.text).toContain(n.summary);
    // With a budget too small even for a clipped note, nothing is attached.
    expect(index.recall('payment retries', { budgetChars: 100 }).notes).toEqual([]);
  });

  it('never attaches a note already attached in the transcript (by id, or by scope:id)', () => {
    const index = new SearchIndex([
      doc('theme', { summary: 'Dark theme colors' }),
      doc('theme', { scope: 'user', summary: 'I prefer the dark theme' }),
      doc('other', { summary: 'Theme switching' }),
    ]);
    expect(index.recall('dark theme').notes).toHaveLength(3);
    expect(ids(index.recall('dark theme', { alreadyAttached: ['theme'] }).notes)).toEqual(['other']);
    const r = index.recall('dark theme', { alreadyAttached: ['user:theme'] });
    expect(r.notes.map((h) => `${h.scope}:${h.id}`).sort()).toEqual(['project:other', 'project:theme']);
  });

  it('lets usage reorder close matches but never lift a note over minScore', () => {
    const index = new SearchIndex([
      doc('a', { summary: 'Invoice numbering', updatedAt: 2 }),
      doc('b', { summary: 'Invoice numbering', updatedAt: 1 }),
    ]);
    expect(ids(index.recall('invoice').notes)).toEqual(['a', 'b']);
    const usage = (scope: string, id: string) => (id === 'b' ? 50 : 0);
    const nudged = index.recall('invoice', { usage });
    expect(ids(nudged.notes)).toEqual(['b', 'a']);
    expect(nudged.notes[0]!.score).toBe(sumParts(nudged.notes[0]!.why.parts));

    const text = nudged.notes[1]!.score; // a: no usage, so score = text score
    const minScore = text * 1.05; // below it on text, above it with a 10% nudge
    expect(index.recall('invoice', { minScore, usage: () => 1e9 }).notes).toEqual([]);
  });

  it('lists linked notes by summary: project scope first, then user; missing and attached ones left out', () => {
    const index = new SearchIndex([
      doc('deploy', {
        summary: 'Deploy steps',
        body: 'See [[checklist]], [[secrets]], [[not-written-yet]] and [[deploy]].',
      }),
      doc('checklist', { summary: 'Release checklist (project)' }),
      doc('checklist', { scope: 'user', summary: 'My own checklist' }),
      doc('secrets', { scope: 'user', summary: 'Where secrets live' }),
    ]);
    const r = index.recall('deploy');
    expect(ids(r.notes)).toEqual(['deploy']);
    expect(r.linked).toEqual([
      { id: 'checklist', scope: 'project', summary: 'Release checklist (project)' },
      { id: 'secrets', scope: 'user', summary: 'Where secrets live' },
    ]);
    expect(r.text).toBe(
      '<recalled-memory>\n' +
        '<note id="deploy" scope="project">\nDeploy steps\nSee [[checklist]], [[secrets]], [[not-written-yet]] and [[deploy]].\n</note>\n' +
        'Linked notes (read with the memory tool):\n' +
        '- checklist (project): Release checklist (project)\n' +
        '- secrets (user): Where secrets live\n' +
        '</recalled-memory>',
    );
    expect(index.recall('deploy', { alreadyAttached: ['secrets'] }).linked.map((l) => l.id)).toEqual([
      'checklist',
    ]);
  });

  it('never throws: an internal failure returns an empty result with the error for the caller to log', () => {
    const index = new SearchIndex([doc('x', { summary: 'Cache invalidation' })]);
    const boom = new Error('usage store unreadable');
    const r = recall(index, 'cache', {
      usage: () => {
        throw boom;
      },
    });
    expect(r).toEqual({ notes: [], linked: [], text: '', error: boom });
    // The index is still usable afterwards (no accumulator left dirty).
    expect(ids(index.recall('cache').notes)).toEqual(['x']);
    expect(index.search('cache')[0]!.score).toBe(index.search('cache')[0]!.score);
  });
});
