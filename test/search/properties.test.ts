import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SearchIndex } from '../../electron/memory/search/index.js';
import type { SearchDocument } from '../../electron/memory/search/index.js';
import type { RankingConfig } from '../../electron/memory/search/scoring.js';
import { sumParts } from './helpers.js';

const WORDS = [
  'merge',
  'merging',
  'deploy',
  'cache',
  'caching',
  'the',
  'font',
  '数据库',
  '迁移',
  'theme',
  'test',
  'tests',
];
const text = fc.array(fc.constantFrom(...WORDS), { maxLength: 8 }).map((ws) => ws.join(' '));
const noteArb = fc.record({
  id: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
  scope: fc.constantFrom('project' as const, 'user' as const),
  summary: text,
  tags: fc.array(fc.constantFrom(...WORDS), { maxLength: 3 }),
  body: text,
  updatedAt: fc.integer({ min: 0, max: 5 }),
});
const opArb = fc.oneof(
  noteArb.map((n) => ({ kind: 'upsert' as const, note: n as SearchDocument })),
  fc
    .record({
      id: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
      scope: fc.constantFrom('project' as const, 'user' as const),
    })
    .map((r) => ({ kind: 'remove' as const, ...r })),
);
/** Notes with distinct ids, so every note stays in the index. */
const distinctNotes = (maxLength: number) =>
  fc
    .array(noteArb, { minLength: 1, maxLength })
    .map((notes) => notes.map((n, i) => ({ ...n, id: `n${i}` }) as SearchDocument));
const message = fc.array(text, { minLength: 1, maxLength: 4 }).map((t) => t.join(' '));
/** Recall with no cap on how many notes or characters it attaches: minScore alone decides. */
const RECALL_ALL = { minScore: 0.8, perTurn: 1000, budgetChars: 1e9 };
const keys = (hits: readonly { scope: string; id: string }[]) => hits.map((h) => `${h.scope}:${h.id}`).sort();

/** The same notes in two indexes, one ranked with `on`, the other with `off`. */
function withAndWithout(
  docs: SearchDocument[],
  on: Partial<RankingConfig>,
  off: Partial<RankingConfig>,
): [SearchIndex, SearchIndex] {
  const withIt = new SearchIndex(docs);
  withIt.configureRanking(on);
  const without = new SearchIndex(docs);
  without.configureRanking(off);
  return [withIt, without];
}

describe('search properties', () => {
  it('the explanation parts always sum to the score, and every hit matched something', () => {
    fc.assert(
      fc.property(fc.array(noteArb, { maxLength: 12 }), text, fc.nat(20), (notes, query, uses) => {
        const index = new SearchIndex(notes as SearchDocument[]);
        for (const hit of index.search(query, { usage: () => uses })) {
          expect(hit.score).toBe(sumParts(hit.why.parts));
          expect(hit.score).toBeGreaterThan(0);
          const m = hit.why.matched;
          expect(m.summary.length + m.tags.length + m.body.length).toBeGreaterThan(0);
        }
      }),
    );
  });

  it('an index kept current by upsert/remove ranks exactly like one built from scratch; removed notes never appear', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 30 }), text, (ops, query) => {
        const live = new SearchIndex();
        const truth = new Map<string, SearchDocument>();
        const removed = new Set<string>();
        for (const op of ops) {
          if (op.kind === 'upsert') {
            live.upsert(op.note);
            truth.set(`${op.note.scope}:${op.note.id}`, op.note);
            removed.delete(`${op.note.scope}:${op.note.id}`);
          } else {
            live.remove(op.scope, op.id);
            if (truth.delete(`${op.scope}:${op.id}`)) removed.add(`${op.scope}:${op.id}`);
          }
        }
        const fresh = new SearchIndex(truth.values());
        const a = live.search(query, { limit: 50 });
        expect(a).toEqual(fresh.search(query, { limit: 50 }));
        expect(live.recall(query, { minScore: 0.5 })).toEqual(fresh.recall(query, { minScore: 0.5 }));
        for (const hit of a) expect(removed.has(`${hit.scope}:${hit.id}`)).toBe(false);
        expect(live.size).toBe(truth.size);
      }),
    );
  });

  it('recall never throws and only attaches notes matching in summary or tags above minScore', () => {
    fc.assert(
      fc.property(
        fc.array(noteArb, { maxLength: 12 }),
        text,
        fc.double({ min: 0, max: 5, noNaN: true }),
        (notes, msg, minScore) => {
          const index = new SearchIndex(notes as SearchDocument[]);
          const r = index.recall(msg, { minScore });
          expect(r.error).toBeUndefined();
          expect(r.notes.length).toBeLessThanOrEqual(3);
          for (const hit of r.notes) {
            expect(hit.why.matched.summary.length + hit.why.matched.tags.length).toBeGreaterThan(0);
            expect(hit.score - hit.why.parts.usage).toBeGreaterThanOrEqual(minScore);
          }
        },
      ),
    );
  });

  it('recall attaches exactly the search hits that match in summary or tags and reach minScore (both scoring paths)', () => {
    fc.assert(
      fc.property(distinctNotes(40), message, (docs, msg) => {
        // Without feedback and proximity a search hit's score is its text score, which is what
        // minScore compares (both only reorder: the properties below).
        const index = new SearchIndex(docs);
        index.configureRanking({ feedback: null, proximity: null });
        const expected = index
          .search(msg, { limit: 1000, asYouType: false })
          .filter(
            (h) =>
              h.why.matched.summary.length + h.why.matched.tags.length > 0 && h.score >= RECALL_ALL.minScore,
          );
        const got = index.recall(msg, RECALL_ALL).notes;
        expect(keys(got)).toEqual(keys(expected));
        for (const h of got)
          expect(h.score).toBeCloseTo(expected.find((e) => e.id === h.id && e.scope === h.scope)!.score, 9);
      }),
    );
  });

  it('feedback only reorders recall: the same notes qualify with it as without it', () => {
    fc.assert(
      fc.property(distinctNotes(60), message, (docs, msg) => {
        const [withFeedback, without] = withAndWithout(
          docs,
          // A small pool so feedback really runs on these small stores.
          { feedback: { docs: 2, terms: 5, originalWeight: 0.5, maxDocShare: 1, scorePower: 4 } },
          { feedback: null },
        );
        expect(keys(withFeedback.recall(msg, RECALL_ALL).notes)).toEqual(
          keys(without.recall(msg, RECALL_ALL).notes),
        );
      }),
    );
  });

  it('proximity only reorders: search and recall return the same notes with it as without it', () => {
    fc.assert(
      fc.property(distinctNotes(60), message, (docs, msg) => {
        const [withProximity, without] = withAndWithout(
          docs,
          // A pool as large as the store, so every hit is re-ranked.
          { proximity: { pool: 100, window: 5, weight: 1, maxQueryTerms: 12 } },
          { proximity: null },
        );
        const search = (i: SearchIndex) => i.search(msg, { limit: 100, asYouType: false });
        expect(keys(search(withProximity))).toEqual(keys(search(without)));
        for (const h of search(withProximity)) expect(h.score).toBe(sumParts(h.why.parts));
        expect(keys(withProximity.recall(msg, RECALL_ALL).notes)).toEqual(
          keys(without.recall(msg, RECALL_ALL).notes),
        );
      }),
    );
  });
});
