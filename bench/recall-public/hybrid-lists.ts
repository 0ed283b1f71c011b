/**
 * What every fusion of the hybrid is computed from, gathered once per set: per question its
 * lexical hits (ours, the best 100, as search fuses them) and its semantic matches (the best 100 by
 * cosine). Note vectors are cached under the OS temp dir per set and store (SemanticRecall's own
 * files), question vectors beside them (`store-N-queries.vec`, keyed by the question's text), so a
 * re-run embeds nothing and fusions can be compared and fitted without asking the model again.
 */
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { SearchIndex } from '../../electron/memory/search/index.js';
import type { SearchHit, SemanticMatch } from '../../electron/memory/search/types.js';
import type { EmbeddingsProvider } from '../../electron/memory/semantic/embeddings-client.js';
import { SemanticRecall } from '../../electron/memory/semantic/semantic-recall.js';
import { normalise, readVectorFile, writeVectorFile } from '../../electron/memory/semantic/vector-file.js';
import type { PublicSet } from './sets.js';

/** Lexical hits handed to fusion (search-index.ts FUSION_LEXICAL_POOL). */
const LEXICAL_POOL = 100;
/** Notes embedded per request and per save: a long run that is stopped keeps what it embedded. */
const BATCH = 64;
const SAVE_EVERY = 512;

export interface QueryLists {
  relevant: readonly string[];
  lexical: SearchHit[];
  semantic: SemanticMatch[];
}

export interface StoreLists {
  index: SearchIndex;
  queries: QueryLists[];
}

export interface SetLists {
  name: string;
  stores: StoreLists[];
}

function vectorsDirOf(set: string): string {
  return path.join(os.tmpdir(), 'memdesk-recall-public-vectors', set);
}

/** The questions' unit vectors, embedding only those not cached yet. */
async function queryVectors(
  file: string,
  provider: EmbeddingsProvider,
  queries: readonly string[],
): Promise<Float32Array[]> {
  const cached = await readVectorFile(file, provider.space);
  const key = (q: string) => createHash('sha1').update(q).digest('base64url');
  const missing = [...new Set(queries)].filter((q) => cached.get(key(q))?.key !== key(q));
  for (let i = 0; i < missing.length; i += BATCH) {
    const batch = missing.slice(i, i + BATCH);
    const vecs = await provider.embed(batch);
    batch.forEach((q, j) => cached.set(key(q), { key: key(q), vector: normalise(vecs[j]!) }));
  }
  if (missing.length > 0) await writeVectorFile(file, provider.space, cached);
  return queries.map((q) => cached.get(key(q))!.vector);
}

/**
 * Both rankings of every question of the set's first `storeCount` stores. Endpoint errors
 * propagate (EmbeddingsError): the caller says the hybrid was not measured.
 */
export async function collectLists(
  set: PublicSet,
  provider: EmbeddingsProvider,
  storeCount = set.stores.length,
): Promise<SetLists> {
  const stores: StoreLists[] = [];
  for (const [i, store] of set.stores.slice(0, storeCount).entries()) {
    const semantic = new SemanticRecall({
      dir: vectorsDirOf(set.name),
      provider,
      batchSize: BATCH,
      scopeKeys: { project: `store-${i}`, user: `store-${i}-user` },
      now: Date.now,
    });
    for (let before = -1; before !== semantic.embeddedCount;) {
      before = semantic.embeddedCount;
      await semantic.update(store.notes, before + SAVE_EVERY);
    }
    const file = path.join(vectorsDirOf(set.name), `store-${i}-queries.vec`);
    const vectors = await queryVectors(
      file,
      provider,
      store.queries.map((q) => q.query),
    );
    const index = new SearchIndex(store.notes);
    const queries: QueryLists[] = [];
    for (const [j, q] of store.queries.entries()) {
      queries.push({
        relevant: q.relevant,
        lexical: index.search(q.query, { limit: LEXICAL_POOL }),
        semantic: await semantic.nearest(vectors[j]!, store.notes),
      });
    }
    stores.push({ index, queries });
  }
  return { name: set.name, stores };
}
