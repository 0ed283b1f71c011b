import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuseScores, SEMANTIC_WEIGHT, unmatchedHit } from '../../electron/memory/search/fusion.js';
import type { SearchHit, SemanticMatch } from '../../electron/memory/search/types.js';
import { sumParts } from './helpers.js';

/** A lexical hit scoring `score`, split over summary and body as a real hit's parts are. */
function hit(id: string, score: number, summaryShare = 0.7): SearchHit {
  return {
    ...unmatchedHit({ scope: 'project', id, summary: id }),
    score,
    why: {
      matched: { summary: [id], tags: [], body: [] },
      parts: { summary: score * summaryShare, tags: 0, body: score * (1 - summaryShare), usage: 0 },
    },
  };
}
const match = (id: string, similarity: number): SemanticMatch => ({ scope: 'project', id, similarity });
const hitOf = (scope: 'project' | 'user', id: string) => unmatchedHit({ scope, id, summary: id });
const ids = (hits: readonly SearchHit[]) => hits.map((h) => h.id);

/** Lexical hits best first: distinct ids l0…, scores sorted descending. */
const lexicalArb = fc
  .array(fc.double({ min: 0.01, max: 30, noNaN: true }), { minLength: 1, maxLength: 25 })
  .map((scores) => [...scores].sort((a, b) => b - a).map((s, i) => hit(`l${i}`, s)));

/** Any semantic ranking over some of the lexical hits and notes no word matched (s0…). */
function semanticArb(lexical: readonly SearchHit[]): fc.Arbitrary<SemanticMatch[]> {
  const pool = [...ids(lexical), ...Array.from({ length: 10 }, (_, i) => `s${i}`)];
  return fc
    .tuple(
      fc.shuffledSubarray(pool, { minLength: 0, maxLength: pool.length }),
      fc.array(fc.double({ min: -1, max: 1, noNaN: true }), {
        minLength: pool.length,
        maxLength: pool.length,
      }),
    )
    .map(([chosen, sims]) => {
      const sorted = sims.slice(0, chosen.length).sort((a, b) => b - a);
      return chosen.map((id, i) => match(id, sorted[i]!));
    });
}
const weightArb = fc.double({ min: 0, max: 0.49, noNaN: true });

describe('score fusion (fusion.ts)', () => {
  it('a semantic ranking identical to the lexical one changes nothing, at any weight', () => {
    fc.assert(
      fc.property(lexicalArb, fc.double({ min: 0, max: 1, noNaN: true }), (lexical, w) => {
        const semantic = lexical.map((h, i) => match(h.id, 0.9 - i * 0.01));
        expect(ids(fuseScores(lexical, semantic, hitOf, w))).toEqual(ids(lexical));
      }),
    );
  });

  it('no semantic ranking moves a note past one whose lexical lead exceeds w / (1 − w)', () => {
    fc.assert(
      fc.property(
        lexicalArb.chain((lexical) => fc.tuple(fc.constant(lexical), semanticArb(lexical), weightArb)),
        ([lexical, semantic, w]) => {
          const fused = fuseScores(lexical, semantic, hitOf, w);
          const best = lexical[0]!.score;
          const norm = new Map(lexical.map((h) => [h.id, h.score / best]));
          const pos = new Map(fused.map((h, i) => [h.id, i]));
          const allowance = w / (1 - w);
          for (const a of lexical)
            for (const b of fused) {
              const lead = norm.get(a.id)! - (norm.get(b.id) ?? 0);
              if (lead > allowance + 1e-9) expect(pos.get(a.id)!).toBeLessThan(pos.get(b.id)!);
            }
          // So a strong word match stays in the top k: only notes within the allowance of its
          // lexical score can pass it.
          for (const a of lexical) {
            const within = lexical.filter(
              (b) => b.id !== a.id && norm.get(b.id)! >= norm.get(a.id)! - allowance - 1e-9,
            ).length;
            const semanticOnly = allowance >= norm.get(a.id)! - 1e-9 ? semantic.length : 0;
            expect(pos.get(a.id)!).toBeLessThanOrEqual(within + semanticOnly);
          }
        },
      ),
    );
  });

  it('keeps the explanation true: the parts sum to the score, the semantic part is its share', () => {
    fc.assert(
      fc.property(
        lexicalArb.chain((lexical) => fc.tuple(fc.constant(lexical), semanticArb(lexical), weightArb)),
        ([lexical, semantic, w]) => {
          for (const h of fuseScores(lexical, semantic, hitOf, w)) {
            expect(h.score).toBe(sumParts(h.why.parts));
            expect(h.why.parts.semantic).toBeGreaterThanOrEqual(0);
            expect(h.why.parts.semantic).toBeLessThanOrEqual(w + 1e-12);
            const m = semantic.findIndex((s) => s.id === h.id);
            if (m >= 0) expect(h.why.semantic).toEqual({ similarity: semantic[m]!.similarity, rank: m + 1 });
            else expect(h.why.semantic).toBeUndefined();
          }
        },
      ),
    );
  });

  it('gives no note more than w when similarities are subnormal (found by the property above)', () => {
    const w = 0.019230769230769232;
    const semantic = [match('s0', 6.4e-323), match('s9', -6.4e-323)];
    const fused = fuseScores([hit('l0', 2)], semantic, hitOf, w);
    for (const h of fused) expect(h.why.parts.semantic).toBeLessThanOrEqual(w);
    expect(fused.find((h) => h.id === 's0')?.why.parts.semantic).toBe(w);
  });

  it('weight 0 is words alone: the lexical order, and no note that matched no word', () => {
    fc.assert(
      fc.property(
        lexicalArb.chain((lexical) => fc.tuple(fc.constant(lexical), semanticArb(lexical))),
        ([lexical, semantic]) => {
          expect(ids(fuseScores(lexical, semantic, hitOf, 0))).toEqual(ids(lexical));
        },
      ),
    );
  });

  it('reorders close word matches by meaning and lifts a paraphrase above weak ones, not above a clear one', () => {
    const lexical = [hit('clear', 10), hit('close-a', 4), hit('close-b', 3.9), hit('weak', 0.5)];
    const semantic = [
      match('paraphrase', 0.8),
      match('close-b', 0.7),
      match('clear', 0.2),
      match('far', 0.1),
    ];
    const fused = fuseScores(lexical, semantic, hitOf);
    expect(ids(fused)).toEqual(['clear', 'close-b', 'close-a', 'paraphrase', 'weak']);
    const paraphrase = fused.find((h) => h.id === 'paraphrase')!;
    expect(paraphrase.why.parts.semantic).toBe(SEMANTIC_WEIGHT);
    expect(paraphrase.why.matched.summary).toEqual([]);
    expect(fused.find((h) => h.id === 'weak')!.why.parts.semantic).toBe(0);
  });
});
