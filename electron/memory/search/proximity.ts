/**
 * Proximity of query terms, as a re-rank of the best candidates (docs/search.md, "Proximity").
 * The index keeps no term positions (its stored format is shared with the index cache), so the
 * positions are taken from the candidates' own text at query time, which is affordable for the
 * few best notes only.
 *
 * Scored like BM25TP (Rasolofo & Savoy 2003): for each pair of distinct query terms, every two
 * occurrences within `window` terms of each other in one field add 1/distance²; the pair's sum is
 * saturated (acc / (1 + acc)) and weighted by the rarer term's idf, so two common words side by
 * side add little and a rare phrase a lot.
 */
export interface ProximityConfig {
  /** How many of the best notes are re-ranked (the rest keep their order below them). */
  pool: number;
  /** Occurrences further apart than this many terms do not count. */
  window: number;
  /** Multiplies the pair scores before they are added to the note's score. */
  weight: number;
  /**
   * Queries with more distinct typed terms are left alone: every pair of terms is compared, so a
   * pasted log or long message is not worth it.
   */
  maxQueryTerms: number;
}

/** The query side: distinct typed terms and their idf (already multiplied by the query weight). */
export interface ProximityQuery {
  terms: readonly string[];
  idfs: readonly number[];
}

/** Positions of the query's terms in one field's term sequence (index = query term). */
function positionsIn(fieldTerms: readonly string[], index: ReadonlyMap<string, number>): number[][] {
  const out: number[][] = Array.from({ length: index.size }, () => []);
  for (let p = 0; p < fieldTerms.length; p++) {
    const qi = index.get(fieldTerms[p]!);
    if (qi !== undefined) out[qi]!.push(p);
  }
  return out;
}

/** Σ 1/d² over occurrence pairs of two terms within the window (positions ascending). */
function pairAccumulation(a: readonly number[], b: readonly number[], window: number): number {
  let acc = 0;
  let start = 0;
  for (const x of a) {
    while (start < b.length && b[start]! < x - window) start++;
    for (let j = start; j < b.length && b[j]! <= x + window; j++) {
      const d = Math.abs(b[j]! - x);
      if (d > 0) acc += 1 / (d * d);
    }
  }
  return acc;
}

/**
 * The proximity score of one note: its fields' term sequences (`analyze` of the summary and the
 * body; tags are a list, not prose) against the query's terms. 0 with fewer than two query terms
 * or no two of them near each other.
 */
export function proximityScore(
  fields: readonly (readonly string[])[],
  q: ProximityQuery,
  c: ProximityConfig,
): number {
  if (q.terms.length < 2 || c.weight <= 0) return 0;
  const index = new Map(q.terms.map((t, i) => [t, i] as const));
  const acc = new Float64Array(q.terms.length * q.terms.length);
  for (const terms of fields) {
    if (terms.length < 2) continue;
    const pos = positionsIn(terms, index);
    for (let i = 0; i < pos.length; i++) {
      if (pos[i]!.length === 0) continue;
      for (let j = i + 1; j < pos.length; j++) {
        if (pos[j]!.length === 0) continue;
        const k = i * q.terms.length + j;
        acc[k] = acc[k]! + pairAccumulation(pos[i]!, pos[j]!, c.window);
      }
    }
  }
  let score = 0;
  for (let i = 0; i < q.terms.length; i++)
    for (let j = i + 1; j < q.terms.length; j++) {
      const a = acc[i * q.terms.length + j]!;
      if (a > 0) score += Math.min(q.idfs[i]!, q.idfs[j]!) * (a / (1 + a));
    }
  return c.weight * score;
}
