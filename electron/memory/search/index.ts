/**
 * The memory core's search engine: text analysis, an incremental in-memory index over project and
 * user notes, ranked `search` with explanations, `related` / duplicate detection for remember,
 * per-message `recall`, and the memory index text for the system prompt.
 *
 * Pure and synchronous: inputs are plain data (no file I/O), so the store keeps one `SearchIndex`
 * current by calling `upsert` / `remove` on every write and every watcher event.
 *
 * ```ts
 * const index = new SearchIndex();
 * for (const n of projectNotes) index.upsert({ ...n, scope: 'project' });
 * index.search('merging branches', { limit: 20, scope: 'both' });     // → SearchHit[]
 * index.related({ summary, tags, body }, { limit: 5 });                // → { related, duplicateOf }
 * index.recall(message, { perTurn: 3, budgetChars: 2000, minScore: 1.2, alreadyAttached, usage });
 * buildIndexText(notes, 4000);                                         // → { text, shown, omitted }
 * ```
 *
 * Scoring, weights and thresholds are documented in docs/search.md.
 */
export type {
  IndexText,
  IndexTextEntry,
  NoteLike,
  NoteRef,
  RecallOptions,
  RecallResult,
  RelatedOptions,
  RelatedResult,
  ScopeSelection,
  ScoreExplanation,
  SearchDocument,
  SearchHit,
  SearchOptions,
  UsageCounts,
} from './types.js';

/** Lower-case, split (Unicode-aware; CJK runs into overlapping bigrams), drop English stop words, Porter-stem. */
export { analyze } from './analyze.js';

/**
 * The incremental index. Methods:
 * - `upsert(doc)` add or replace the note `(doc.scope, doc.id)`;
 * - `remove(scope, id)` → whether it was there;
 * - `get(scope, id)`, `has(scope, id)`, `size`, `documents()`, `clear()`;
 * - `resolveLink(id)` → the note a `[[id]]` link names: project scope first, then user; or undefined;
 * - `search(query, {limit = 20, scope = 'both', usage})` → SearchHit[] best first (BM25F);
 * - `related(noteLike, {limit = 5, scope, exclude})` → { related, duplicateOf };
 * - `similarity(noteLike, scope, id)` → 0..1 (what the duplicate threshold compares);
 * - `recall(message, options)` → RecallResult (never throws; see `recall` in ./recall.ts).
 */
export { SearchIndex } from './search-index.js';

/** Per-message recall over an index (also available as `index.recall`). Never throws. */
export { neutralizeTags, recall, renderRecalledMemory } from './recall.js';

/** The memory index text: one line per note, newest first, within `indexChars`; guidance when empty. */
export { buildIndexText, EMPTY_INDEX_GUIDANCE } from './index-text.js';

/** Tunables, exported so the docs, tests and benchmarks refer to the same numbers. */
export { DUPLICATE_THRESHOLD, FIELD_WEIGHTS, RECALL_DEFAULTS, usageBonus, usageKey } from './scoring.js';

/** Project-true retain: whether a user note is tagged only for other projects than the open one. */
export { hiddenInProject, PROJECT_TAG_PREFIX } from './project-tag.js';
