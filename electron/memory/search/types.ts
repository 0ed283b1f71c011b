import type { z } from 'zod';
import type { SearchHitSchema } from '../../../shared/api/notes.js';
import type { Note, Scope } from '../../../shared/note.js';

/** A ranked hit, exactly the API's `SearchHitSchema`: id, scope, summary, score and why it matched. */
export type SearchHit = z.infer<typeof SearchHitSchema>;

/** The explanation of a hit: matched terms per field and the score's parts (which sum to the score). */
export type ScoreExplanation = SearchHit['why'];

/**
 * What the search engine needs of a note: plain data, no file I/O. A `Note` plus its scope fits
 * (extra keys such as `createdAt` or `extra` are ignored).
 */
export type SearchDocument = Pick<Note, 'id' | 'summary' | 'tags' | 'type' | 'body' | 'updatedAt'> & {
  scope: Scope;
};

/** A note that may not be saved yet (remember's "related" / "duplicate" check): no id or time needed. */
export type NoteLike = Pick<Note, 'summary' | 'tags' | 'body'> & { type?: Note['type'] };

/** A note referred to by summary only (linked notes, related notes). */
export interface NoteRef {
  id: string;
  scope: Scope;
  summary: string;
}

/**
 * How often each note has been recalled on this machine (memory-usage/). Either a map keyed by
 * `usageKey(scope, id)` or a lookup function; a missing note counts 0.
 */
export type UsageCounts = ReadonlyMap<string, number> | ((scope: Scope, id: string) => number);

/** `both` searches project and user notes together (the API's ScopeSelection). */
export type ScopeSelection = Scope | 'both';

/** A note close in meaning to a query (semantic recall, electron/memory/semantic/), best first. */
export interface SemanticMatch {
  scope: Scope;
  id: string;
  /** Cosine similarity of the note's and the query's embeddings. */
  similarity: number;
}

export interface SearchOptions {
  /** Semantic matches for this query: fused with the lexical ranking (./fusion.ts). */
  semantic?: readonly SemanticMatch[];
  /** The semantic share of the fused score (./fusion.ts `SEMANTIC_WEIGHT` when not given). */
  semanticWeight?: number;
  /** At most this many hits, best first. Default 20. */
  limit?: number;
  /** Which notes to search. Default `both`. */
  scope?: ScopeSelection;
  /** Usage counts: nudge ranking slightly (see `usageBonus`). */
  usage?: UsageCounts;
  /** The open project's label: user notes tagged only for other projects are left out (project-tag.ts). */
  projectLabel?: string;
  /** Find-as-you-type (the last word as a prefix, one typo in long words). Default true. */
  asYouType?: boolean;
}

export interface RelatedOptions {
  /** At most this many related notes. Default 5. */
  limit?: number;
  scope?: ScopeSelection;
  /** Leave this note out (the note itself, when it is already in the index, e.g. on edit). */
  exclude?: { scope: Scope; id: string };
}

export interface RelatedResult {
  /** The most related existing notes, best first (same ranking and explanation as `search`). */
  related: SearchHit[];
  /**
   * The existing note this one probably duplicates (similarity ≥ `duplicateThreshold`), or null.
   * Always also the first entry of `related` when set.
   */
  duplicateOf: (NoteRef & { similarity: number }) | null;
}

export interface RecallOptions {
  /**
   * Semantic matches for this message (semantic recall on): they reorder the notes that qualify
   * by words (./fusion.ts); a note matching no word of the message is never attached (the seed's rule).
   */
  semantic?: readonly SemanticMatch[];
  /** The semantic share of the fused score (./fusion.ts `SEMANTIC_WEIGHT` when not given). */
  semanticWeight?: number;
  /** Notes attached per message at most. Default 3 (`memory.recall.perTurn`). */
  perTurn?: number;
  /** Characters the attached notes may take in the `<recalled-memory>` block. Default 2000. */
  budgetChars?: number;
  /** The text score (without the usage nudge) a note must reach to be attached. Default 1.2. */
  minScore?: number;
  /**
   * Notes already attached earlier in the transcript: never attached again. Entries are note ids
   * (excluded in both scopes) or `usageKey(scope, id)` strings (excluded in that scope only).
   */
  alreadyAttached?: Iterable<string>;
  usage?: UsageCounts;
  /** The open project's label: user notes tagged only for other projects are never attached. */
  projectLabel?: string;
}

export interface RecallResult {
  /** The attached notes, best first. Empty in the common case: nothing reached the threshold. */
  notes: SearchHit[];
  /** Notes the attached notes link to ([[id]], project scope first, then user), listed by summary. */
  linked: NoteRef[];
  /** The `<recalled-memory>` block to append to the user message; '' when nothing is attached. */
  text: string;
  /** Set when recall failed internally and returned empty instead; the caller logs it. */
  error?: unknown;
}

/** A note as the memory index shows it (a `NoteSummary` fits). */
export type IndexTextEntry = Pick<Note, 'id' | 'summary' | 'updatedAt'> & {
  scope: Scope;
  type?: Note['type'];
  /** Needed only to leave out notes tagged for other projects (`projectLabel`). */
  tags?: readonly string[];
};

export interface IndexText {
  /** The index as the system prompt shows it. */
  text: string;
  /** Notes listed in `text`. */
  shown: number;
  /** Notes that did not fit in `indexChars` (counted in `text`'s last line, never lost). */
  omitted: number;
}

/**
 * A note's text analysis as the index stores it: its distinct terms with their per-field
 * frequencies packed as summary | tags << 8 | body << 16 (search-index.ts), and the number of terms
 * per field. Depends only on the note's summary, tags and body.
 */
export interface DocumentAnalysis {
  terms: string[];
  tfs: number[];
  lengths: readonly [summary: number, tags: number, body: number];
}

/** Options of the shared ranking loop (search, related and recall are all this with different settings). */
export interface RankOptions {
  limit: number;
  scope: ScopeSelection;
  usage: UsageCounts | undefined;
  /** Only notes with a term in their summary or tags (recall's rule). */
  requireSummaryOrTags?: boolean;
  /** Only notes whose text score (without usage) reaches this. */
  minTextScore?: number;
  /** Leave these notes out. `doc` is the indexed note (given by the ranking loop, so no lookup by key per candidate). */
  skip?: (scope: Scope, id: string, doc?: SearchDocument) => boolean;
  /**
   * Re-weight the query by pseudo-relevance feedback (the index's `ranking.feedback`) before the
   * final ranking. Which notes qualify (summary/tag match, `minTextScore`) is still decided by
   * the query as given: feedback only reorders them, so recall's own rules (a summary or tag
   * match, the minimum score) keep their meaning.
   */
  feedback?: boolean;
  /** The typed terms whose closeness re-ranks the best notes (the index's `ranking.proximity`). */
  proximityTerms?: readonly string[];
}
