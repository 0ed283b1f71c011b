/**
 * A straightforward `search` for the equality test (reference-ranking.test.ts): every note scored
 * from its own analysis, every candidate sorted, the vocabulary scanned term by term — none of the
 * index's postings, heaps, sorted term lists or caches. Same formulas as docs/search.md, written
 * so that each score is computed in the same order of operations as the index (so equal rankings
 * give bit-equal scores).
 */
import { analyzeQuery, cjkChars, analyze } from '../../electron/memory/search/analyze.js';
import {
  PREFIX_EXPANSION_MAX,
  PREFIX_WEIGHT,
  TYPO_EXPANSION_MAX,
  TYPO_MIN_LENGTH,
  TYPO_WEIGHT,
  withinOneEdit,
} from '../../electron/memory/search/as-you-type.js';
import { positionsOf, proximityScore } from '../../electron/memory/search/proximity.js';
import { analyseDocument } from '../../electron/memory/search/search-index.js';
import { bm25Idf, DEFAULT_RANKING, sumParts } from '../../electron/memory/search/scoring.js';
import type { SearchDocument, SearchHit } from '../../electron/memory/search/types.js';

interface Query {
  terms: string[];
  weights: number[];
}

interface Note {
  doc: SearchDocument;
  key: string;
  tf: Map<string, number>;
  order: string[];
  norms: [number, number, number];
}

const R = DEFAULT_RANKING;

/**
 * The reference over one fixed set of notes: each note is analysed once here (the costly part),
 * then every query is scored from those analyses by brute force.
 */
export function referenceSearcher(
  docs: readonly SearchDocument[],
): (text: string, limit?: number) => SearchHit[] {
  const analysed = docs.map((doc) => ({ doc, a: analyseDocument(doc) }));
  const n = docs.length;
  const avg = [0, 1, 2].map((f) =>
    Math.max(analysed.reduce((s, x) => s + x.a.lengths[f]!, 0) / Math.max(n, 1), 1e-9),
  );
  const w = [R.fieldWeights.summary, R.fieldWeights.tags, R.fieldWeights.body];
  const b = [R.fieldB.summary, R.fieldB.tags, R.fieldB.body];
  const notes: Note[] = analysed.map(({ doc, a }) => ({
    doc,
    key: `${doc.scope}\u0000${doc.id}`,
    tf: new Map(a.terms.map((t, i) => [t, a.tfs[i]!])),
    order: a.terms,
    norms: [0, 1, 2].map((f) => w[f]! / (1 - b[f]! + (b[f]! * a.lengths[f]!) / avg[f]!)) as Note['norms'],
  }));
  const df = new Map<string, number>();
  for (const x of notes) for (const t of x.order) df.set(t, (df.get(t) ?? 0) + 1);
  const dfOf = (t: string) => df.get(t) ?? 0;
  const vocabulary = [...df.keys()];
  // Proximity needs each note's word positions; analysed on first need, once per note.
  const positions = new Map<Note, ReturnType<typeof positionsOf>[]>();
  const positionsFor = (x: Note) => {
    let p = positions.get(x);
    if (!p) positions.set(x, (p = [positionsOf(analyze(x.doc.summary)), positionsOf(analyze(x.doc.body))]));
    return p;
  };
  return (text, limit = 20) => search(text, limit);

  function search(text: string, limit: number): SearchHit[] {
    const typed = unique(analyzeQuery(text));
    const exact = widenCjk(typed, vocabulary);
    const q = expandAsTyped(exact, text, vocabulary, dfOf);
    if (limit <= 0 || q.terms.length === 0 || n === 0) return [];

    const scoreOf = (x: Note, query: Query): number => {
      let acc = 0;
      for (let i = 0; i < query.terms.length; i++) {
        const tf = x.tf.get(query.terms[i]!);
        if (tf === undefined) continue;
        const idf = bm25Idf(dfOf(query.terms[i]!), n) * query.weights[i]!;
        const xx = (tf & 0xff) * x.norms[0] + ((tf >>> 8) & 0xff) * x.norms[1] + (tf >>> 16) * x.norms[2];
        acc = acc + (idf * xx) / (R.k1 + xx);
      }
      return acc;
    };
    const best = (query: Query, k: number): Note[] =>
      notes
        .map((x) => ({ x, s: scoreOf(x, query) }))
        .filter((c) => c.s > 0)
        .sort(
          (a, c) =>
            c.s - a.s ||
            c.x.doc.updatedAt - a.x.doc.updatedAt ||
            (a.x.key < c.x.key ? -1 : a.x.key > c.x.key ? 1 : 0),
        )
        .slice(0, k)
        .map((c) => c.x);
    const explain = (x: Note, query: Query): SearchHit => {
      const matched = { summary: [] as string[], tags: [] as string[], body: [] as string[] };
      let pS = 0;
      let pT = 0;
      let pB = 0;
      query.terms.forEach((term, qi) => {
        const tf = x.tf.get(term);
        if (tf === undefined) return;
        const idf = bm25Idf(dfOf(term), n) * query.weights[qi]!;
        const xs = (tf & 0xff) * x.norms[0];
        const xt = ((tf >>> 8) & 0xff) * x.norms[1];
        const xb = (tf >>> 16) * x.norms[2];
        const xx = xs + xt + xb;
        const s = (idf * xx) / (R.k1 + xx);
        if (xs > 0) {
          pS += (s * xs) / xx;
          matched.summary.push(term);
        }
        if (xt > 0) {
          pT += (s * xt) / xx;
          matched.tags.push(term);
        }
        if (xb > 0) {
          pB += (s * xb) / xx;
          matched.body.push(term);
        }
      });
      const parts = { summary: pS, tags: pT, body: pB, usage: 0 };
      return {
        id: x.doc.id,
        scope: x.doc.scope,
        summary: x.doc.summary,
        score: sumParts(parts),
        why: { matched, parts },
      };
    };

    const prox = R.proximity!;
    const proxTerms = exact.terms.filter((t) => dfOf(t) > 0);
    const useProx =
      exact.terms.length >= 2 && exact.terms.length <= prox.maxQueryTerms && proxTerms.length >= 2;
    const pool = useProx ? Math.max(limit, prox.pool) : limit;

    // RM3 feedback (docs/search.md): the best 5 of a first pass of at least 10, weighted by score⁴.
    const fb = R.feedback!;
    let final = q;
    if (q.terms.length <= 32) {
      const first = best(q, fb.docs * 2);
      if (first.length === fb.docs * 2)
        final = rm3(
          q,
          first.slice(0, fb.docs).map((x) => ({ x, score: explain(x, q).score })),
        );
    }

    function rm3(query: Query, top: { x: Note; score: number }[]): Query {
      const total = top.reduce((a, d) => a + Math.pow(d.score, fb.scorePower), 0);
      if (!(total > 0)) return query;
      const model = new Map<string, number>();
      const typedSet = new Set(query.terms);
      for (const { x, score } of top) {
        const weighted = x.order.map((t) => {
          const tf = x.tf.get(t)!;
          return [t, w[0]! * (tf & 0xff) + w[1]! * ((tf >>> 8) & 0xff) + w[2]! * (tf >>> 16)] as const;
        });
        const length = weighted.reduce((a, [, v]) => a + v, 0);
        if (!(length > 0)) continue;
        const wt = Math.pow(score, fb.scorePower) / total / length;
        for (const [t, v] of weighted)
          if (typedSet.has(t) || dfOf(t) <= fb.maxDocShare * n) model.set(t, (model.get(t) ?? 0) + wt * v);
      }
      const chosen = [...model].sort((a, c) => c[1] - a[1] || (a[0] < c[0] ? -1 : 1)).slice(0, fb.terms);
      const mass = chosen.reduce((a, [, p]) => a + p, 0);
      if (!(mass > 0)) return query;
      const scale = query.terms.length / fb.originalWeight;
      const weights = new Map(query.terms.map((t, i) => [t, query.weights[i]!]));
      for (const [t, p] of chosen)
        weights.set(t, (weights.get(t) ?? 0) + (1 - fb.originalWeight) * (p / mass) * scale);
      return { terms: [...weights.keys()], weights: [...weights.values()] };
    }

    const hits = best(final, pool).map((x) => ({ x, hit: explain(x, final) }));
    if (!useProx) return hits.map((h) => h.hit);
    const pq = { terms: proxTerms, idfs: proxTerms.map((t) => bm25Idf(dfOf(t), n)) };
    return hits
      .map(({ x, hit }, i) => {
        if (proxTerms.filter((t) => x.tf.has(t)).length < 2) return { hit, i };
        const p = proximityScore(positionsFor(x), pq, prox);
        if (p === 0) return { hit, i };
        const parts = { ...hit.why.parts, proximity: p };
        return { hit: { ...hit, score: sumParts(parts), why: { ...hit.why, parts } }, i };
      })
      .sort((a, c) => c.hit.score - a.hit.score || a.i - c.i)
      .slice(0, limit)
      .map((h) => h.hit);
  }
}

function unique(terms: string[]): Query {
  const u = [...new Set(terms)];
  return { terms: u, weights: u.map(() => 1) };
}

function widenCjk(q: Query, vocabulary: string[]): Query {
  const out = { terms: [...q.terms], weights: [...q.weights] };
  for (const term of q.terms) {
    if (cjkChars(term)?.length !== 1) continue;
    const bigrams = vocabulary.filter((t) => cjkChars(t)?.length === 2 && t.includes(term)).sort();
    for (const bg of bigrams.slice(0, 64))
      if (!out.terms.includes(bg)) {
        out.terms.push(bg);
        out.weights.push(1);
      }
  }
  return out;
}

/** Find-as-you-type as first written: every vocabulary term compared with the word. */
function expandAsTyped(q: Query, text: string, vocabulary: string[], df: (t: string) => number): Query {
  const lower = text.normalize('NFKC').toLowerCase();
  const out = { terms: [...q.terms], weights: [...q.weights] };
  const add = (terms: string[], weight: number) => {
    for (const t of terms)
      if (!out.terms.includes(t)) {
        out.terms.push(t);
        out.weights.push(weight);
      }
  };
  const mostCommon = (terms: string[], max: number) =>
    terms.sort((a, c) => df(c) - df(a) || a.length - c.length || (a < c ? -1 : 1)).slice(0, max);
  const tail = /[\p{L}\p{N}]+$/u.exec(lower)?.[0];
  for (const word of lower.match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (cjkChars(word)) continue;
    const stem = analyze(word)[0];
    const known = stem !== undefined && df(stem) > 0;
    const prefixes =
      word === tail
        ? mostCommon(
            vocabulary.filter(
              (t) =>
                t === stem ||
                t.startsWith(word) ||
                (stem !== undefined && stem !== word && t.startsWith(stem)) ||
                (t.length >= 4 && word.length - t.length <= 3 && word.startsWith(t)),
            ),
            PREFIX_EXPANSION_MAX,
          )
        : [];
    add(prefixes, PREFIX_WEIGHT);
    if (!known && prefixes.length === 0 && stem !== undefined && word.length >= TYPO_MIN_LENGTH) {
      const near = vocabulary.filter((t) => {
        const d = word.length - t.length;
        return (
          (Math.abs(d) <= 1 && withinOneEdit(word, t)) ||
          (Math.abs(stem.length - t.length) <= 1 && withinOneEdit(stem, t)) ||
          (t.length >= 4 && d > 1 && d <= 3 && withinOneEdit(word.slice(0, t.length), t))
        );
      });
      add(mostCommon(near, TYPO_EXPANSION_MAX), TYPO_WEIGHT);
    }
  }
  return out;
}
