/**
 * The rankers compared in the benchmarks, each behind the same tiny interface:
 * ours (SearchIndex), MiniSearch's BM25 (as it comes, and with our field boosts), and a plain
 * term-frequency scorer.
 */
import MiniSearch from 'minisearch';
import { analyze, SearchIndex, FIELD_WEIGHTS } from '../../electron/memory/search/index.js';
import type { SearchDocument } from '../../electron/memory/search/index.js';

export interface Ranker {
  name: string;
  /** Ids of the best `limit` notes, best first. */
  search(query: string, limit: number): string[];
}

export function ours(docs: readonly SearchDocument[]): Ranker & { index: SearchIndex } {
  const index = new SearchIndex(docs);
  return {
    name: 'ours (BM25F, stemmed, CJK bigrams)',
    index,
    search: (q, limit) => index.search(q, { limit }).map((h) => h.id),
  };
}

function minisearchOf(
  docs: readonly SearchDocument[],
  boost: boolean,
  ourAnalyzer: boolean,
): MiniSearch<SearchDocument & { key: string }> {
  const analyzer = { tokenize: analyze, processTerm: (t: string) => t };
  const ms = new MiniSearch<SearchDocument & { key: string }>({
    idField: 'key',
    fields: ['summary', 'tags', 'body'],
    storeFields: ['id'],
    extractField: (doc, field) => {
      const v = (doc as unknown as Record<string, unknown>)[field];
      return Array.isArray(v) ? v.join(' ') : v;
    },
    ...(ourAnalyzer ? analyzer : {}),
    searchOptions: {
      ...(boost ? { boost: { summary: FIELD_WEIGHTS.summary, tags: FIELD_WEIGHTS.tags } } : {}),
      ...(ourAnalyzer ? analyzer : {}),
    },
  });
  ms.addAll(docs.map((d) => ({ ...d, key: `${d.scope}:${d.id}` })));
  return ms;
}

export function minisearch(
  docs: readonly SearchDocument[],
  boost = false,
  ourAnalyzer = false,
): Ranker & { ms: MiniSearch } {
  const ms = minisearchOf(docs, boost, ourAnalyzer);
  return {
    name: `MiniSearch BM25 (${boost ? 'summary/tags boost 3' : 'default weights'}, ${ourAnalyzer ? 'our analyzer' : 'its own tokenizer'})`,
    ms: ms as unknown as MiniSearch,
    search: (q, limit) =>
      ms
        .search(q)
        .slice(0, limit)
        .map((r) => r.id as string),
  };
}

/** Count of query-word occurrences in the note (lower-cased, split at non-letters), no weighting at all. */
export function termFrequency(docs: readonly SearchDocument[]): Ranker {
  const split = (s: string) =>
    s
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
  const bags = docs.map((d) => {
    const m = new Map<string, number>();
    for (const w of split(`${d.summary} ${d.tags.join(' ')} ${d.body}`)) m.set(w, (m.get(w) ?? 0) + 1);
    return { id: d.id, m };
  });
  return {
    name: 'plain term frequency',
    search: (q, limit) => {
      const words = [...new Set(split(q))];
      const scored: { id: string; s: number }[] = [];
      for (const b of bags) {
        let s = 0;
        for (const w of words) s += b.m.get(w) ?? 0;
        if (s > 0) scored.push({ id: b.id, s });
      }
      scored.sort((a, b) => b.s - a.s);
      return scored.slice(0, limit).map((x) => x.id);
    },
  };
}
