/**
 * The hybrid (semantic recall on) measured beside the lexical default, when an embeddings endpoint
 * is configured for the bench: RECALL_EMBEDDINGS_URL (an OpenAI-compatible base URL, e.g.
 * http://127.0.0.1:11434/v1 for Ollama), RECALL_EMBEDDINGS_MODEL, optional RECALL_EMBEDDINGS_KEY.
 * Notes are embedded once per set into a vector cache under the OS temp dir (re-runs embed nothing).
 */
import os from 'node:os';
import path from 'node:path';
import { OpenAiEmbeddings } from '../../electron/memory/semantic/embeddings-client.js';
import { SemanticRecall } from '../../electron/memory/semantic/semantic-recall.js';
import { ours } from '../recall-quality/engines.js';
import { quality } from '../recall-quality/metrics.js';
import type { Quality } from '../recall-quality/metrics.js';
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
function storeLimit(set: PublicSet): number {
  const n = Number(process.env.RECALL_HYBRID_STORES ?? set.stores.length);
  return Number.isInteger(n) && n > 0 ? Math.min(n, set.stores.length) : set.stores.length;
}

/** Lexical and hybrid recall@10 / MRR of one set; null (with the reason printed) when the endpoint fails. */
export async function measureHybrid(
  set: PublicSet,
  provider: OpenAiEmbeddings,
): Promise<{ lexical: Quality; hybrid: Quality } | null> {
  const judged = [];
  const lexical = [];
  const hybrid = [];
  for (const [i, store] of set.stores.slice(0, storeLimit(set)).entries()) {
    const semantic = new SemanticRecall({
      dir: path.join(os.tmpdir(), 'memdesk-recall-public-vectors', set.name),
      provider,
      batchSize: 64,
      scopeKeys: { project: `store-${i}`, user: null },
      now: Date.now,
    });
    await semantic.update(store.notes);
    const { index } = ours(store.notes);
    for (const q of store.queries) {
      const answer = await semantic.match(q.query, store.notes);
      if (!answer.matches) {
        console.log(`  hybrid: not measured — ${answer.notice ?? 'the embeddings endpoint is down'}`);
        return null;
      }
      judged.push(q);
      lexical.push(index.search(q.query, { limit: 10 }).map((h) => h.id));
      hybrid.push(index.search(q.query, { limit: 10, semantic: answer.matches }).map((h) => h.id));
    }
  }
  return { lexical: quality(judged, lexical), hybrid: quality(judged, hybrid) };
}

/** Prints the set's hybrid beside its lexical default, or why it was not measured. */
export async function reportHybrid(set: PublicSet): Promise<void> {
  const provider = embeddingsFromEnv();
  if (!provider) {
    console.log(
      '  hybrid: not measured — set RECALL_EMBEDDINGS_URL and RECALL_EMBEDDINGS_MODEL to an embeddings endpoint',
    );
    return;
  }
  const h = await measureHybrid(set, provider);
  if (!h) return;
  const limit = storeLimit(set);
  if (limit < set.stores.length)
    console.log(`  hybrid on the first ${limit} of ${set.stores.length} stores only (RECALL_HYBRID_STORES):`);
  const f = (q: Quality) => `recall@10 ${q.recallAt10.toFixed(3)}  MRR ${q.mrr.toFixed(3)}`;
  console.log(`  hybrid (${provider.space}):\n    lexical ${f(h.lexical)}\n    hybrid  ${f(h.hybrid)}`);
  console.log(
    `    gain: recall@10 ${(h.hybrid.recallAt10 - h.lexical.recallAt10).toFixed(3)}, MRR ${(h.hybrid.mrr - h.lexical.mrr).toFixed(3)}`,
  );
}
