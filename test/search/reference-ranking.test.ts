import { describe, expect, it } from 'vitest';
import { generateCorpus } from '../../bench/recall-quality/generate.js';
import { SearchIndex } from '../../electron/memory/search/index.js';
import type { SearchDocument } from '../../electron/memory/search/index.js';
import { referenceSearcher } from './reference-search.js';

/**
 * The index's search (postings, top-k selection, sorted term lists, caches) ranks exactly like a
 * straightforward scorer over the same notes (./reference-search.ts): same notes, same order, same
 * scores and explanations — typed queries, every prefix of them as typed key by key, one-typo
 * words — also after notes are edited, removed and added one by one.
 */
// Small enough that the whole file costs a few seconds of CPU (the reference scores every note).
const { notes, queries } = generateCorpus(400, 40, 11);

/** The queries as typed: each whole, each prefix of its last words, and one with two letters swapped. */
function typedQueries(): string[] {
  const out = new Set<string>();
  for (const { query } of queries) {
    out.add(query);
    for (let i = Math.max(1, query.length - 6); i < query.length; i++) out.add(query.slice(0, i));
    const words = query.split(' ');
    const last = words[words.length - 1]!;
    if (last.length >= 5)
      out.add([...words.slice(0, -1), last[0]! + last[2]! + last[1]! + last.slice(3)].join(' '));
  }
  return [...out];
}

function expectSameAsReference(index: SearchIndex, docs: readonly SearchDocument[], qs: string[]): void {
  const reference = referenceSearcher(docs);
  for (const q of qs) expect(index.search(q, { limit: 20 }), q).toEqual(reference(q, 20));
}

describe('search ranks exactly like the reference scorer', () => {
  const qs = typedQueries();

  it('on a generated store, for typed, half-typed and mistyped queries', () => {
    expect(qs.length).toBeGreaterThan(150);
    expectSameAsReference(new SearchIndex(notes), notes, qs);
  });

  it('after edits, removals and additions one at a time (the sorted term list kept in step)', () => {
    const index = new SearchIndex(notes);
    const live = new Map(notes.map((n) => [`${n.scope}:${n.id}`, n as SearchDocument]));
    const put = (d: SearchDocument) => {
      index.upsert(d);
      live.set(`${d.scope}:${d.id}`, d);
    };
    index.search('warm up the term list'); // lookups before the changes must see them afterwards
    notes
      .slice(0, 40)
      .forEach((n, i) =>
        put({ ...n, summary: `${n.summary} zebrafish${i} quokka`, updatedAt: n.updatedAt + 1 }),
      );
    for (const n of notes.slice(40, 80)) {
      index.remove(n.scope, n.id);
      live.delete(`${n.scope}:${n.id}`);
    }
    notes
      .slice(80, 100)
      .forEach((n, i) => put({ ...n, id: `${n.id}-copy`, scope: 'user', tags: [`narwhal${i}`] }));
    const docs = [...live.values()];
    // 'zebrafish3' is the exact word of note 3 and, as typed, a prefix of zebrafish30–39: note 3
    // first (exact weight), then the ten prefix matches, before notes sharing only feedback words.
    const zebra = index.search('zebrafish3', { limit: 50 }).map((h) => h.id);
    expect(zebra[0]).toBe(notes[3]!.id);
    expect(new Set(zebra.slice(0, 11))).toEqual(
      new Set([3, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39].map((i) => notes[i]!.id)),
    );
    // Every tagged copy is found (its tag is a term added after the first lookup); feedback words
    // also bring in the originals they were copied from, which may rank among them.
    const narwhals = index.search('narwh', { limit: 50 }).map((h) => h.id);
    expect(narwhals).toEqual(expect.arrayContaining(notes.slice(80, 100).map((n) => `${n.id}-copy`)));
    expectSameAsReference(index, docs, ['zebraf', 'quokk', 'narwhal1', 'narw', ...qs.slice(0, 120)]);
  });

  it('is a comparison that notices a changed ranking', () => {
    const index = new SearchIndex(notes);
    index.configureRanking({ k1: 1.25 });
    const reference = referenceSearcher(notes);
    const differ = qs.slice(0, 40).filter((q) => {
      try {
        expect(index.search(q, { limit: 20 })).toEqual(reference(q, 20));
        return false;
      } catch {
        return true;
      }
    });
    expect(differ.length).toBeGreaterThan(30);
  });
});
