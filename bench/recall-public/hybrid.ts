/**
 * The hybrid (semantic recall on) measured beside the lexical default, when an embeddings endpoint
 * is configured for the bench: RECALL_EMBEDDINGS_URL (an OpenAI-compatible base URL, e.g.
 * http://127.0.0.1:11434/v1 for Ollama), RECALL_EMBEDDINGS_MODEL, optional RECALL_EMBEDDINGS_KEY.
 * Notes and questions are embedded once per set into a vector cache under the OS temp dir
 * (./hybrid-lists.ts; re-runs embed nothing). Printed per set: words alone, the equal-weight rank
 * fusion used until stop 25, and the score fusion search and recall use (electron/memory/search/
 * fusion.ts) at its default weight.
 */
import { fuseScores, SEMANTIC_WEIGHT, unmatchedHit } from '../../electron/memory/search/fusion.js';
import { EmbeddingsError, OpenAiEmbeddings } from '../../electron/memory/semantic/embeddings-client.js';
import { quality } from '../recall-quality/metrics.js';
import type { Quality } from '../recall-quality/metrics.js';
import { collectLists } from './hybrid-lists.js';
import type { QueryLists, SetLists, StoreLists } from './hybrid-lists.js';
import type { PublicSet } from './sets.js';

export function embeddingsFromEnv(): OpenAiEmbeddings | null {
  const baseUrl = process.env.RECALL_EMBEDDINGS_URL;
  const model = process.env.RECALL_EMBEDDINGS_MODEL;
  if (!baseUrl || !model) return null;
  return new OpenAiEmbeddings({
    baseUrl,
    model,
    apiKey: process.env.RECALL_EMBEDDINGS_KEY ?? null,
    // A CPU-bound local model on a loaded machine can take minutes for one batch of long texts.
    timeoutMs: 900_000,
  });
}

/**
 * RECALL_HYBRID_STORES=N measures the hybrid on the set's first N stores only (lexical beside it on
 * the same stores): a CPU-bound local model can take hours for a whole set on a loaded machine.
 */
export function storeLimit(set: PublicSet): number {
  const n = Number(process.env.RECALL_HYBRID_STORES ?? set.stores.length);
  return Number.isInteger(n) && n > 0 ? Math.min(n, set.stores.length) : set.stores.length;
}

/** A fusion as the bench compares them: a question's two rankings in, note ids best first out. */
export type Fusion = (store: StoreLists, q: QueryLists) => string[];

export const wordsAlone: Fusion = (_store, q) => q.lexical.map((h) => h.id);

/** RRF's constant (Cormack et al. 2009), as the rank fusion used until stop 25 had it. */
const RRF_K = 60;

/**
 * Equal-weight reciprocal rank fusion, search's fusion until stop 25 (Σ 1/(60 + rank) over the two
 * lists): kept here only to measure against. Ties keep the lexical order, then the semantic one.
 */
export const equalRankFusion: Fusion = (_store, q) => {
  const score = new Map<string, { s: number; order: number }>();
  q.lexical.forEach((h, i) => score.set(`${h.scope}:${h.id}`, { s: 1 / (RRF_K + i + 1), order: i }));
  q.semantic.forEach((m, i) => {
    const k = `${m.scope}:${m.id}`;
    const e = score.get(k) ?? { s: 0, order: q.lexical.length + i };
    score.set(k, { s: e.s + 1 / (RRF_K + i + 1), order: e.order });
  });
  return [...score]
    .sort(([, a], [, b]) => b.s - a.s || a.order - b.order)
    .map(([k]) => k.slice(k.indexOf(':') + 1));
};

/** Search's fusion (fusion.ts) at semantic weight `weight`, exactly as `SearchIndex.search` calls it. */
export function scoreFusion(weight: number): Fusion {
  return (store, q) =>
    fuseScores(
      q.lexical,
      q.semantic,
      (scope, id) => {
        const doc = store.index.get(scope, id);
        return doc ? unmatchedHit(doc) : undefined;
      },
      weight,
    ).map((h) => h.id);
}

/** recall@10 / MRR@10 (and the rest of `quality`) of one fusion over every question of a set. */
export function measureFusion(lists: SetLists, fusion: Fusion): Quality {
  const judged = [];
  const ranked = [];
  for (const store of lists.stores)
    for (const q of store.queries) {
      judged.push(q);
      ranked.push(fusion(store, q).slice(0, 10));
    }
  return quality(judged, ranked);
}

export const fmtQuality = (q: Quality) => `recall@10 ${q.recallAt10.toFixed(3)}  MRR ${q.mrr.toFixed(3)}`;

/** The set's lists, or null (with the reason printed) when the endpoint fails. */
export async function listsOrNull(set: PublicSet, provider: OpenAiEmbeddings): Promise<SetLists | null> {
  try {
    return await collectLists(set, provider, storeLimit(set));
  } catch (err) {
    if (!(err instanceof EmbeddingsError)) throw err;
    console.log(`  hybrid: not measured — ${err.message}`);
    return null;
  }
}

/** Prints the set's fusions beside its lexical default, or why they were not measured. */
export async function reportHybrid(set: PublicSet): Promise<void> {
  const provider = embeddingsFromEnv();
  if (!provider) {
    console.log(
      '  hybrid: not measured — set RECALL_EMBEDDINGS_URL and RECALL_EMBEDDINGS_MODEL to an embeddings endpoint',
    );
    return;
  }
  const lists = await listsOrNull(set, provider);
  if (!lists) return;
  const limit = storeLimit(set);
  if (limit < set.stores.length)
    console.log(`  hybrid on the first ${limit} of ${set.stores.length} stores only (RECALL_HYBRID_STORES):`);
  const lexical = measureFusion(lists, wordsAlone);
  const rows: [string, Quality][] = [
    ['words alone', lexical],
    ['equal-weight rank fusion (until stop 25)', measureFusion(lists, equalRankFusion)],
    [`score fusion, weight ${SEMANTIC_WEIGHT} (default)`, measureFusion(lists, scoreFusion(SEMANTIC_WEIGHT))],
  ];
  console.log(`  hybrid (${provider.space}):`);
  for (const [name, q] of rows) console.log(`    ${name.padEnd(44)} ${fmtQuality(q)}`);
  const fused = rows[2]![1];
  console.log(
    `    gain of the default: recall@10 ${(fused.recallAt10 - lexical.recallAt10).toFixed(3)}, MRR ${(fused.mrr - lexical.mrr).toFixed(3)}`,
  );
}
