import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Scope } from '../../../shared/note.js';
import type { SearchDocument, SemanticMatch } from '../search/types.js';
import type { EmbeddingsProvider } from './embeddings-client.js';
import { EmbeddingsError } from './embeddings-client.js';
import { readEndpointState, RETRY_MS, writeEndpointState } from './endpoint-state.js';
import { normalise, readVectorFile, writeVectorFile } from './vector-file.js';
import type { NoteVector } from './vector-file.js';

/** A note's text as embedded: enough to say what it is about; long bodies are cut. */
const EMBED_CHARS = 4000;
/** Notes (re-)embedded per query at most: a first use with 10,000 notes must not hold a message up. */
const EMBED_PER_QUERY = 512;
/** Semantic matches handed to fusion. */
const SEMANTIC_POOL = 100;

export interface SemanticRecallOptions {
  /** `memory-vectors/` (settings.ts `vectorsDir`). */
  dir: string;
  provider: EmbeddingsProvider;
  batchSize: number;
  /** File name stem per scope: 'user', or the project's usage key (usage.ts `projectUsageKey`). */
  scopeKeys: Record<Scope, string | null>;
  now: () => number;
}

export interface SemanticAnswer {
  /** The notes closest in meaning to the query, best first; null when the endpoint could not be used. */
  matches: SemanticMatch[] | null;
  /** Set once per outage: semantic recall is off until the endpoint answers again, and why. */
  notice?: string;
}

/**
 * Cheap key of what a note's vector was computed from: the body is not read for it (a note loaded
 * from the index cache reads its body lazily), since every edit through the app, an agent or sync
 * moves `updatedAt`.
 */
export function textKey(n: Pick<SearchDocument, 'summary' | 'tags' | 'updatedAt'>): string {
  return createHash('sha1')
    .update(`${n.updatedAt}\0${n.summary}\0${n.tags.join('\0')}`)
    .digest('base64url');
}

function embedText(n: Pick<SearchDocument, 'summary' | 'tags' | 'body'>): string {
  return `${n.summary}\n${n.tags.join(', ')}\n${n.body}`.slice(0, EMBED_CHARS);
}

/**
 * Semantic recall over one core's notes: vectors per machine (never synced, never in notes), kept
 * current incrementally (only notes whose text key changed are embedded, in batches), a
 * brute-force cosine scan for a query. Never throws for an endpoint failure: the answer is then
 * `matches: null` (recall goes on with words alone) and, the first time, a notice.
 */
export class SemanticRecall {
  private vectors = new Map<Scope, Map<string, NoteVector>>();
  /** Notes embedded since this instance was made (tests and the bench read it). */
  embeddedCount = 0;

  constructor(private readonly o: SemanticRecallOptions) {}

  /** The vector space (endpoint and model) its files hold. */
  get space(): string {
    return this.o.provider.space;
  }

  private file(scope: Scope): string | null {
    const key = this.o.scopeKeys[scope];
    return key === null ? null : path.join(this.o.dir, `${key}.vec`);
  }

  private async load(scope: Scope): Promise<Map<string, NoteVector>> {
    let v = this.vectors.get(scope);
    if (!v) {
      const file = this.file(scope);
      v = file ? await readVectorFile(file, this.o.provider.space) : new Map<string, NoteVector>();
      this.vectors.set(scope, v);
    }
    return v;
  }

  /**
   * Brings the vectors up to date with `notes` (of both scopes): drops removed notes, embeds new and
   * changed ones (at most `limit`), saves the scopes that changed. Endpoint errors propagate.
   */
  async update(notes: readonly SearchDocument[], limit = Infinity): Promise<void> {
    await fs.mkdir(this.o.dir, { recursive: true });
    for (const scope of ['project', 'user'] as const) {
      if (this.file(scope) === null) continue;
      const have = await this.load(scope);
      const mine = notes.filter((n) => n.scope === scope);
      const ids = new Set(mine.map((n) => n.id));
      let changed = false;
      for (const id of [...have.keys()])
        if (!ids.has(id)) {
          have.delete(id);
          changed = true;
        }
      const stale = mine
        .map((n) => ({ n, key: textKey(n) }))
        .filter(({ n, key }) => have.get(n.id)?.key !== key)
        .slice(0, Math.max(0, limit - this.embeddedCount));
      for (let i = 0; i < stale.length; i += this.o.batchSize) {
        const batch = stale.slice(i, i + this.o.batchSize);
        const vecs = await this.o.provider.embed(batch.map(({ n }) => embedText(n)));
        batch.forEach(({ n, key }, j) => have.set(n.id, { key, vector: normalise(vecs[j]!) }));
        this.embeddedCount += batch.length;
        changed = true;
      }
      if (changed) await writeVectorFile(this.file(scope)!, this.o.provider.space, have);
    }
  }

  /** The notes closest in meaning to `query` among `notes`, after bringing their vectors up to date. */
  async match(query: string, notes: readonly SearchDocument[]): Promise<SemanticAnswer> {
    const state = await readEndpointState(this.o.dir);
    const now = this.o.now();
    if (state.downSince !== null && now - state.triedAt < RETRY_MS) return { matches: null };
    try {
      const [q] = await this.o.provider.embed([query]);
      await this.update(notes, this.embeddedCount + EMBED_PER_QUERY);
      if (state.downSince !== null) await writeEndpointState(this.o.dir, { downSince: null, triedAt: now });
      return { matches: await this.nearest(normalise(q!), notes) };
    } catch (err) {
      if (!(err instanceof EmbeddingsError)) throw err;
      await writeEndpointState(this.o.dir, { downSince: state.downSince ?? now, triedAt: now });
      if (state.downSince !== null) return { matches: null };
      return {
        matches: null,
        notice: `semantic recall is off until the embeddings endpoint answers again (${err.message}); recalling by words only`,
      };
    }
  }

  /**
   * The notes of `notes` whose stored vectors are closest to the unit vector `q`, best first (a
   * brute-force cosine scan; notes without a vector yet are left out). The bench scans with query
   * vectors it keeps itself.
   */
  async nearest(q: Float32Array, notes: readonly SearchDocument[]): Promise<SemanticMatch[]> {
    const out: SemanticMatch[] = [];
    for (const n of notes) {
      const v = (await this.load(n.scope)).get(n.id)?.vector;
      if (!v || v.length !== q.length) continue;
      let dot = 0;
      for (let i = 0; i < q.length; i++) dot += q[i]! * v[i]!;
      out.push({ scope: n.scope, id: n.id, similarity: dot });
    }
    out.sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return out.slice(0, SEMANTIC_POOL);
  }
}
