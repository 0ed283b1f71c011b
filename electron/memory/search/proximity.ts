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

/** One field's term positions: term → ascending positions in the field's term sequence. */
export type FieldPositions = ReadonlyMap<string, Int32Array>;

/**
 * A field's positions, computed once per note (the index keeps them for the notes re-ranked most
 * recently), so a query looks its few terms up instead of scanning the field's text.
 */
export function positionsOf(fieldTerms: readonly string[]): FieldPositions {
  const lists = new Map<string, number[]>();
  for (let p = 0; p < fieldTerms.length; p++) {
    const t = fieldTerms[p]!;
    const list = lists.get(t);
    if (list) list.push(p);
    else lists.set(t, [p]);
  }
  const out = new Map<string, Int32Array>();
  for (const [t, list] of lists) out.set(t, Int32Array.from(list));
  return out;
}

/** Σ 1/d² over occurrence pairs of two terms within the window (positions ascending). */
function pairAccumulation(a: Int32Array, b: Int32Array, window: number): number {
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
 * The proximity score of one note: its fields' positions (`positionsOf` the analysed summary and
 * body; tags are a list, not prose) against the query's terms. 0 with fewer than two query terms
 * or no two of them near each other.
 */
export function proximityScore(
  fields: readonly FieldPositions[],
  q: ProximityQuery,
  c: ProximityConfig,
): number {
  const n = q.terms.length;
  if (n < 2 || c.weight <= 0) return 0;
  let score = 0;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      let a = 0;
      for (const f of fields) {
        const pi = f.get(q.terms[i]!);
        const pj = pi && f.get(q.terms[j]!);
        if (pi && pj) a += pairAccumulation(pi, pj, c.window);
      }
      if (a > 0) score += Math.min(q.idfs[i]!, q.idfs[j]!) * (a / (1 + a));
    }
  return c.weight * score;
}
