/**
 * A reference BM25, set up like the published BEIR / Pyserini "BM25 flat" baseline: one field
 * (summary, tags and body concatenated), Lucene's English analysis (lower case, word split,
 * possessive 's dropped, Lucene's 33 English stop words, Porter stemming), k1 = 0.9, b = 0.4.
 * Its SciFact nDCG@10 next to the published 0.665–0.679 shows the baseline is a fair one.
 */
import { stemmer } from 'stemmer';
import type { SearchDocument } from '../../electron/memory/search/index.js';
import type { Ranker } from '../recall-quality/engines.js';

const LUCENE_STOP = new Set(
  'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with'.split(
    ' ',
  ),
);

export function luceneAnalyze(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu) ?? []) {
    const w = raw.replace(/['’]s$/, '');
    if (!LUCENE_STOP.has(w)) out.push(/^[a-z]+$/.test(w) ? stemmer(w) : w);
  }
  return out;
}

export function referenceBm25(docs: readonly SearchDocument[], k1 = 0.9, b = 0.4): Ranker {
  const postings = new Map<string, { doc: number; tf: number }[]>();
  const lengths: number[] = [];
  docs.forEach((d, i) => {
    const terms = luceneAnalyze(`${d.summary} ${d.tags.join(' ')} ${d.body}`);
    lengths.push(terms.length);
    const tf = new Map<string, number>();
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, n] of tf) {
      let p = postings.get(t);
      if (!p) postings.set(t, (p = []));
      p.push({ doc: i, tf: n });
    }
  });
  const n = docs.length;
  const avg = lengths.reduce((a, x) => a + x, 0) / Math.max(n, 1);
  return {
    name: 'BM25 reference (Lucene analysis, k1 0.9, b 0.4)',
    search(query, limit) {
      const scores = new Map<number, number>();
      for (const t of new Set(luceneAnalyze(query))) {
        const p = postings.get(t);
        if (!p) continue;
        const idf = Math.log(1 + (n - p.length + 0.5) / (p.length + 0.5));
        for (const { doc, tf } of p) {
          const s = (idf * tf) / (tf + k1 * (1 - b + (b * lengths[doc]!) / avg));
          scores.set(doc, (scores.get(doc) ?? 0) + s);
        }
      }
      return [...scores]
        .sort((x, y) => y[1] - x[1] || x[0] - y[0])
        .slice(0, limit)
        .map(([d]) => docs[d]!.id);
    },
  };
}
