import { describe, expect, it } from 'vitest';
import { analyzeQuery } from '../../electron/memory/search/analyze.js';
import { expandQuery } from '../../electron/memory/search/feedback.js';
import { SearchIndex } from '../../electron/memory/search/index.js';
import { doc } from './helpers.js';

describe('expandQuery (RM3)', () => {
  const q = { terms: ['deploy'], weights: [1] };
  const docs = [
    {
      score: 3,
      terms: [
        ['deploy', 2],
        ['rollback', 2],
      ] as const,
    },
    {
      score: 1,
      terms: [
        ['deploy', 1],
        ['canary', 3],
      ] as const,
    },
  ];

  it('adds the terms of the best notes, weighted by their scores, and keeps the query terms at weight ≥ 1', () => {
    const e = expandQuery(q, docs, { docs: 2, terms: 3, originalWeight: 0.5, maxDocShare: 1, scorePower: 1 });
    const w = Object.fromEntries(e.terms.map((t, i) => [t, e.weights[i]!]));
    // Relevance model: deploy .75·.5 + .25·.25 = .4375, rollback .375, canary .1875 (sum 1).
    expect(w.deploy).toBeCloseTo(1 + 0.4375, 9);
    expect(w.rollback).toBeCloseTo(0.375, 9);
    expect(w.canary).toBeCloseTo(0.1875, 9);
  });

  it('weighs each note by its score to scorePower, so a clear best note outweighs the rest', () => {
    const e = expandQuery(q, docs, { docs: 2, terms: 3, originalWeight: 0.5, maxDocShare: 1, scorePower: 2 });
    const w = Object.fromEntries(e.terms.map((t, i) => [t, e.weights[i]!]));
    // Note weights 3² : 1² = .9 : .1 → deploy .9·.5 + .1·.25 = .475, rollback .45, canary .075.
    expect(w.deploy).toBeCloseTo(1 + 0.475, 9);
    expect(w.rollback).toBeCloseTo(0.45, 9);
    expect(w.canary).toBeCloseTo(0.075, 9);
  });

  it('keeps only the most probable terms', () => {
    const e = expandQuery(q, docs, { docs: 2, terms: 1, originalWeight: 0.5, maxDocShare: 1, scorePower: 1 });
    expect(e.terms).toEqual(['deploy']);
    expect(e.weights[0]).toBeCloseTo(2, 9);
  });

  it('adds only eligible terms (the index leaves out words in too many notes)', () => {
    const e = expandQuery(
      q,
      docs,
      { docs: 2, terms: 5, originalWeight: 0.5, maxDocShare: 1, scorePower: 1 },
      (t) => t !== 'rollback',
    );
    expect(e.terms).toEqual(['deploy', 'canary']);
  });

  it('leaves the query alone with λ = 1, no notes or no expansion terms', () => {
    expect(
      expandQuery(q, docs, { docs: 2, terms: 5, originalWeight: 1, maxDocShare: 1, scorePower: 1 }),
    ).toBe(q);
    expect(
      expandQuery(q, [], { docs: 2, terms: 5, originalWeight: 0.5, maxDocShare: 1, scorePower: 1 }),
    ).toBe(q);
    expect(
      expandQuery(q, docs, { docs: 2, terms: 0, originalWeight: 0.5, maxDocShare: 1, scorePower: 1 }),
    ).toBe(q);
  });
});

describe('analyzeQuery (question words)', () => {
  it('drops question words and phrases, keeps the topic', () => {
    expect(analyzeQuery('What kind of music did she mention?')).toEqual(['music']);
    expect(analyzeQuery('How long has the build been slow?')).toEqual(['build', 'slow']);
    expect(analyzeQuery('Do you remember the deploy checklist?')).toEqual(['deploi', 'checklist']);
  });

  it('keeps the words where they are the topic, and when nothing else is left', () => {
    expect(analyzeQuery('long build times')).toEqual(['long', 'build', 'time']);
    expect(analyzeQuery('kind words')).toEqual(['kind', 'word']);
    expect(analyzeQuery('remember')).toEqual(['rememb']);
  });

  it('is used by search and recall, never for notes', () => {
    const index = new SearchIndex([
      doc('a', { summary: 'We talked to the vendor' }),
      doc('b', { summary: 'Vendor contract' }),
    ]);
    expect(index.search('what did we say about talked').map((h) => h.id)).toEqual(['a']);
    expect(
      index
        .search('what did they mention about the vendor')
        .map((h) => h.id)
        .sort(),
    ).toEqual(['a', 'b']);
    index.configureRanking({ questionWords: false });
    expect(index.queryOf('what did she mention').terms).toEqual(['mention']);
  });
});

describe('search with pseudo-relevance feedback', () => {
  // Ten notes about deploying with canaries; one about canaries that never says "deploy".
  const notes = [
    ...Array.from({ length: 10 }, (_, i) =>
      doc(`d${i}`, {
        summary: `Deploy step ${i}`,
        body: 'Roll out to the canary pool first, watch the canary dashboard.',
      }),
    ),
    doc('c', { summary: 'Canary pool sizing', body: 'Keep the canary pool at five percent.' }),
    doc('x', { summary: 'Font sizes', body: 'Use the type scale.' }),
    // Unrelated notes, so "canary" is in few enough notes (≤ 10%) to be added.
    ...Array.from({ length: 100 }, (_, i) =>
      doc(`f${i}`, { summary: `Meeting ${i}`, body: 'Agenda and minutes.' }),
    ),
  ];

  it('finds a note that shares no word with the query but many with the best hits', () => {
    const index = new SearchIndex(notes);
    const hits = index.search('deploy', { limit: 20 });
    expect(hits.map((h) => h.id)).toContain('c');
    expect(hits.map((h) => h.id)).not.toContain('x');
    const c = hits.find((h) => h.id === 'c')!;
    expect(c.why.matched.summary).toContain('canari');
    index.configureRanking({ feedback: null });
    expect(index.search('deploy', { limit: 20 }).map((h) => h.id)).not.toContain('c');
  });

  it('stays off while the query matches fewer than twice the feedback notes', () => {
    const index = new SearchIndex(notes.slice(5));
    expect(index.search('deploy', { limit: 20 }).map((h) => h.id)).not.toContain('c');
  });
});
