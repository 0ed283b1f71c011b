import type { MemoryCore } from '../types.js';
import { SEMANTIC_WEIGHT } from '../search/fusion.js';
import type { SearchDocument, SemanticMatch } from '../search/types.js';
import { projectUsageKey } from '../usage.js';
import { OpenAiEmbeddings } from './embeddings-client.js';
import { SemanticRecall } from './semantic-recall.js';
import { readEmbeddingsKey, readEmbeddingsSettings, semanticConfigured, vectorsDir } from './settings.js';

export interface CoreSemantic {
  /** null when the endpoint could not be used this time (recall goes on with words alone). */
  matches: SemanticMatch[] | null;
  /** The share of a fused score given to meaning (embeddings.json `weight`, else the fitted default). */
  weight: number;
  /** Once per outage: why semantic recall is off for now. */
  notice?: string;
}

/** One SemanticRecall per core, rebuilt when its settings change (the app keeps a core open for hours). */
const byCore = new WeakMap<MemoryCore, { settings: string; semantic: SemanticRecall }>();

/** The vectors files' name stems of a core's scopes (the usage files' keys). */
export function scopeKeysOf(core: MemoryCore): Record<'user' | 'project', string | null> {
  const p = core.project;
  return { user: 'user', project: p ? projectUsageKey(p.id, p.root) : null };
}

export function notesOf(core: MemoryCore): SearchDocument[] {
  const out: SearchDocument[] = [];
  for (const scope of ['project', 'user'] as const)
    for (const n of core.store(scope)?.list() ?? []) out.push(n);
  return out;
}

/**
 * The semantic matches for a query or message when semantic recall is on (memory-vectors/
 * embeddings.json), else null. Never throws for the endpoint: a down endpoint gives
 * `matches: null` (and the notice once).
 */
export async function semanticFor(core: MemoryCore, query: string): Promise<CoreSemantic | null> {
  if (!core.user.homeUsable) return null;
  let settings;
  try {
    settings = await readEmbeddingsSettings(core.home);
  } catch (err) {
    // Recall never fails over its optional part: words alone, and the reason every time until fixed.
    return { matches: null, weight: SEMANTIC_WEIGHT, notice: (err as Error).message };
  }
  if (!semanticConfigured(settings)) return null;
  const apiKey = await readEmbeddingsKey(core.home);
  const stamp = JSON.stringify([settings, apiKey !== null]);
  let cached = byCore.get(core);
  if (!cached || cached.settings !== stamp) {
    const provider = new OpenAiEmbeddings({
      baseUrl: settings.baseUrl,
      model: settings.model,
      apiKey,
      timeoutMs: settings.timeoutMs,
    });
    const semantic = new SemanticRecall({
      dir: vectorsDir(core.home),
      provider,
      batchSize: settings.batchSize,
      scopeKeys: scopeKeysOf(core),
      now: core.now,
    });
    byCore.set(core, (cached = { settings: stamp, semantic }));
  }
  return {
    ...(await cached.semantic.match(query, notesOf(core))),
    weight: settings.weight ?? SEMANTIC_WEIGHT,
  };
}
