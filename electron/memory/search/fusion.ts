import type { Scope } from '../../../shared/note.js';
import { sumParts } from './scoring.js';
import type { SearchHit, SemanticMatch } from './types.js';

/** RRF's constant (Cormack et al. 2009): ranks far down either list still count a little. */
export const RRF_K = 60;

/**
 * Reciprocal rank fusion of the lexical hits (best first) and the semantic matches (best first):
 * a note's fused score is Σ 1/(RRF_K + rank) over the lists it is in. So the explanation still
 * sums to the score, a hit's lexical parts are scaled to its lexical share 1/(RRF_K + rank), and
 * `parts.semantic` is its semantic share; `why.semantic` gives its similarity and semantic rank.
 * `hitOf` makes the hit of a note only the semantic list has (no term matched); undefined leaves
 * it out (hidden, already attached, not in the scope asked).
 */
export function fuseRanks(
  lexical: readonly SearchHit[],
  semantic: readonly SemanticMatch[],
  hitOf: (scope: Scope, id: string) => SearchHit | undefined,
): SearchHit[] {
  const key = (scope: Scope, id: string) => `${scope}\u0000${id}`;
  const fused = new Map<string, { hit: SearchHit; order: number }>();
  lexical.forEach((hit, i) => {
    const share = 1 / (RRF_K + i + 1);
    const p = hit.why.parts;
    const total = sumParts(p);
    const scale = total > 0 ? share / total : 0;
    const parts = {
      summary: p.summary * scale,
      tags: p.tags * scale,
      body: p.body * scale,
      usage: p.usage * scale,
      ...(p.proximity !== undefined ? { proximity: p.proximity * scale } : {}),
      semantic: 0,
    };
    fused.set(key(hit.scope, hit.id), { hit: { ...hit, why: { ...hit.why, parts } }, order: i });
  });
  semantic.forEach((m, i) => {
    const k = key(m.scope, m.id);
    let entry = fused.get(k);
    if (!entry) {
      const hit = hitOf(m.scope, m.id);
      if (!hit) return;
      const zero = { summary: 0, tags: 0, body: 0, usage: 0, semantic: 0 };
      entry = { hit: { ...hit, why: { ...hit.why, parts: zero } }, order: lexical.length + i };
      fused.set(k, entry);
    }
    const parts = { ...entry.hit.why.parts, semantic: 1 / (RRF_K + i + 1) };
    entry.hit = {
      ...entry.hit,
      why: { ...entry.hit.why, parts, semantic: { similarity: m.similarity, rank: i + 1 } },
    };
  });
  return [...fused.values()]
    .map((e) => ({ ...e, hit: { ...e.hit, score: sumParts(e.hit.why.parts) } }))
    .sort((a, b) => b.hit.score - a.hit.score || a.order - b.order)
    .map((e) => e.hit);
}

/** The hit of a note that matched no term: its parts all 0 (fusion adds the semantic share). */
export function unmatchedHit(doc: { scope: Scope; id: string; summary: string }): SearchHit {
  return {
    id: doc.id,
    scope: doc.scope,
    summary: doc.summary,
    score: 0,
    why: {
      matched: { summary: [], tags: [], body: [] },
      parts: { summary: 0, tags: 0, body: 0, usage: 0 },
    },
  };
}
