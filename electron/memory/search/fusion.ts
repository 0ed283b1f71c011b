import type { Scope } from '../../../shared/note.js';
import { sumParts } from './scoring.js';
import type { SearchHit, SemanticMatch } from './types.js';

/**
 * The share of a fused score given to meaning, `w` below. Fitted across three sets by leave-one-
 * set-out cross-validation (docs/search.md, "Semantic recall"): the weight whose worst gain over
 * the sets is highest, with the one model measured here (a weak one). A better model earns a
 * larger weight: `weight` in embeddings.json, measured the same way by
 * `bench/recall-public/fusion-fit.ts`.
 */
export const SEMANTIC_WEIGHT = 0.05;

/**
 * Convex combination of normalised scores (Bruch, Gai & Ingber 2023, "An analysis of fusion
 * functions for hybrid retrieval"): fused = (1 − w)·lexical/best lexical + w·semantic, where a
 * note's semantic value is its cosine similarity min-max normalised over the semantic matches
 * (1 for the closest, 0 for the last of the pool and for notes not in it).
 *
 * Unlike rank fusion it keeps the lexical score's margins: a note can only pass one whose
 * normalised lexical score is higher by more than w / (1 − w), so a weak or mismatched model can
 * reorder close word matches but not push a clear one out, and a ranking identical to the
 * lexical one changes nothing. So the explanation still sums to the score, a hit's lexical parts
 * are scaled by (1 − w)/best and `parts.semantic` is its semantic share; `why.semantic` gives its
 * similarity and semantic rank. `hitOf` makes the hit of a note only the semantic list has (no
 * term matched); undefined leaves it out (hidden, already attached, not in the scope asked).
 */
export function fuseScores(
  lexical: readonly SearchHit[],
  semantic: readonly SemanticMatch[],
  hitOf: (scope: Scope, id: string) => SearchHit | undefined,
  weight = SEMANTIC_WEIGHT,
): SearchHit[] {
  const w = Math.min(1, Math.max(0, weight));
  const key = (scope: Scope, id: string) => `${scope}\u0000${id}`;
  const fused = new Map<string, { hit: SearchHit; order: number }>();
  const best = lexical.reduce((m, h) => Math.max(m, sumParts(h.why.parts)), 0);
  lexical.forEach((hit, i) => {
    const p = hit.why.parts;
    const scale = best > 0 ? (1 - w) / best : 0;
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
  const top = semantic[0]?.similarity ?? 0;
  const floor = semantic.at(-1)?.similarity ?? 0;
  semantic.forEach((m, i) => {
    const k = key(m.scope, m.id);
    // All matches equally close (one note, say): each is the closest, so each gets the whole w.
    // The ratio first, then w: w·Δ underflows for subnormal similarities, and (w·Δ)/range can then
    // exceed w. Rounding keeps Δ ≤ range, so the ratio stays within [0, 1].
    const share = top > floor ? w * ((m.similarity - floor) / (top - floor)) : w;
    let entry = fused.get(k);
    if (!entry) {
      // Nothing speaks for a note no word matched and meaning gives no share (the pool's last).
      const hit = share > 0 ? hitOf(m.scope, m.id) : undefined;
      if (!hit) return;
      const zero = { summary: 0, tags: 0, body: 0, usage: 0, semantic: 0 };
      entry = { hit: { ...hit, why: { ...hit.why, parts: zero } }, order: lexical.length + i };
      fused.set(k, entry);
    }
    entry.hit = {
      ...entry.hit,
      why: {
        ...entry.hit.why,
        parts: { ...entry.hit.why.parts, semantic: share },
        semantic: { similarity: m.similarity, rank: i + 1 },
      },
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
