import type { LabelledQuery } from './generate.js';

export interface Quality {
  recallAt5: number;
  recallAt10: number;
  mrr: number;
}

/** recall@k: the share of a query's relevant notes in the top k, averaged; MRR: 1 / rank of the first relevant hit. */
export function quality(queries: readonly LabelledQuery[], ranked: readonly (readonly string[])[]): Quality {
  let r5 = 0;
  let r10 = 0;
  let mrr = 0;
  queries.forEach((q, i) => {
    const ids = ranked[i]!;
    const rel = new Set(q.relevant);
    const hits = (k: number) => ids.slice(0, k).filter((id) => rel.has(id)).length;
    r5 += hits(5) / rel.size;
    r10 += hits(10) / rel.size;
    const first = ids.findIndex((id) => rel.has(id));
    mrr += first >= 0 ? 1 / (first + 1) : 0;
  });
  const n = Math.max(queries.length, 1);
  return { recallAt5: r5 / n, recallAt10: r10 / n, mrr: mrr / n };
}

export function fmt(q: Quality): string {
  return `recall@5 ${q.recallAt5.toFixed(3)}  recall@10 ${q.recallAt10.toFixed(3)}  MRR ${q.mrr.toFixed(3)}`;
}
