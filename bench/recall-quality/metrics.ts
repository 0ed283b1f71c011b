/** A query's relevant notes: what every metric here compares a ranking against. */
export interface Judged {
  /** Ids of every relevant note. */
  relevant: readonly string[];
}

export interface Quality {
  recallAt5: number;
  recallAt10: number;
  /** Reciprocal rank of the first relevant hit in the top 10 (0 when none is there). */
  mrr: number;
  /** nDCG@10 with binary relevance: what BEIR publishes, so a BM25 run can be checked against it. */
  ndcgAt10: number;
}

/**
 * recall@k: the share of a query's relevant notes in the top k, averaged over queries; MRR@10;
 * nDCG@10 (binary gains, ideal = all relevant notes first).
 */
export function quality(queries: readonly Judged[], ranked: readonly (readonly string[])[]): Quality {
  let r5 = 0;
  let r10 = 0;
  let mrr = 0;
  let ndcg = 0;
  queries.forEach((q, i) => {
    const ids = ranked[i]!.slice(0, 10);
    const rel = new Set(q.relevant);
    const hits = (k: number) => ids.slice(0, k).filter((id) => rel.has(id)).length;
    r5 += hits(5) / rel.size;
    r10 += hits(10) / rel.size;
    const first = ids.findIndex((id) => rel.has(id));
    mrr += first >= 0 ? 1 / (first + 1) : 0;
    let dcg = 0;
    ids.forEach((id, rank) => {
      if (rel.has(id)) dcg += 1 / Math.log2(rank + 2);
    });
    let ideal = 0;
    for (let rank = 0; rank < Math.min(rel.size, 10); rank++) ideal += 1 / Math.log2(rank + 2);
    ndcg += dcg / ideal;
  });
  const n = Math.max(queries.length, 1);
  return { recallAt5: r5 / n, recallAt10: r10 / n, mrr: mrr / n, ndcgAt10: ndcg / n };
}

export function fmt(q: Quality): string {
  return `recall@5 ${q.recallAt5.toFixed(3)}  recall@10 ${q.recallAt10.toFixed(3)}  MRR ${q.mrr.toFixed(3)}`;
}
