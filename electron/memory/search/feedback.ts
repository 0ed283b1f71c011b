import type { FeedbackConfig } from './scoring.js';

/** A weighted query: distinct terms with a weight each (1 for a typed query). */
export interface WeightedQuery {
  terms: string[];
  weights: number[];
}

/** One note of the first pass: its score and its terms with field-weighted frequencies. */
export interface FeedbackDoc {
  score: number;
  terms: readonly (readonly [term: string, weightedTf: number])[];
}

/**
 * RM3 pseudo-relevance feedback (Lavrenko & Croft's relevance model, mixed with the query as in
 * Anserini): the best notes of a first pass are taken as relevant; each term's probability in
 * them, P(t|d) = tf / |d|, weighted by the notes' normalised scores, forms a relevance model;
 * its `terms` most probable terms are mixed with the original query,
 * `λ · P(t|query) + (1 − λ) · P(t|relevance model)`. The result is scaled so an original term
 * weighs 1 again when the model adds nothing to it, so scores keep their usual range; idf still
 * multiplies every weight, so a common word the notes happen to share adds little.
 */
export function expandQuery(
  q: WeightedQuery,
  docs: readonly FeedbackDoc[],
  c: FeedbackConfig,
  /** Whether a term may be added (the index leaves out words too common to tell notes apart). */
  eligible: (term: string) => boolean = () => true,
): WeightedQuery {
  const lambda = c.originalWeight;
  if (docs.length === 0 || c.terms <= 0 || lambda >= 1 || q.terms.length === 0) return q;
  const weightOf = (score: number) => Math.pow(score, c.scorePower);
  const total = docs.reduce((a, d) => a + weightOf(d.score), 0);
  if (!(total > 0)) return q;
  const model = new Map<string, number>();
  // Asked once per term (a term is in several of the notes).
  const ineligible = new Set<string>();
  for (const d of docs) {
    let length = 0;
    for (const [, tf] of d.terms) length += tf;
    if (!(length > 0)) continue;
    const w = weightOf(d.score) / total / length;
    for (const [term, tf] of d.terms) {
      const p = model.get(term);
      if (p !== undefined) model.set(term, p + w * tf);
      else if (!ineligible.has(term)) {
        if (eligible(term)) model.set(term, w * tf);
        else ineligible.add(term);
      }
    }
  }
  const top = mostProbable(model, c.terms);
  const mass = top.reduce((a, [, p]) => a + p, 0);
  if (!(mass > 0)) return q;
  // λ/|q| per original term becomes 1 after scaling by |q|/λ; the model's share scales alike.
  const scale = q.terms.length / lambda;
  const weights = new Map<string, number>();
  q.terms.forEach((t, i) => weights.set(t, q.weights[i]!));
  for (const [term, p] of top) {
    const add = (1 - lambda) * (p / mass) * scale;
    weights.set(term, (weights.get(term) ?? 0) + add);
  }
  return { terms: [...weights.keys()], weights: [...weights.values()] };
}

/** The `k` most probable terms, most probable first (ties by term), without sorting the whole model. */
function mostProbable(model: ReadonlyMap<string, number>, k: number): [string, number][] {
  const before = (a: readonly [string, number], b: readonly [string, number]) =>
    a[1] > b[1] || (a[1] === b[1] && a[0] < b[0]);
  const top: [string, number][] = [];
  for (const entry of model) {
    if (top.length === k && !before(entry, top[k - 1]!)) continue;
    let i = top.length === k ? k - 1 : top.length;
    while (i > 0 && before(entry, top[i - 1]!)) i--;
    if (top.length === k) top.pop();
    top.splice(i, 0, entry);
  }
  return top;
}
