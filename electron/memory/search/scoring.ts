import type { Scope } from '../../../shared/note.js';
import type { ProximityConfig } from './proximity.js';
import type { ScoreExplanation, UsageCounts } from './types.js';

/**
 * BM25F parameters (see docs/search.md). A term's pseudo-frequency in a note is
 * Σ_field weight · tf / (1 − b + b · len / avgLen), saturated as idf · x / (k1 + x), so the summary
 * and tags weigh five times the body (0.6 since it was fitted across the public sets and our
 * generated one together; it was 0.5), and a word repeated in a long body cannot outrun a short
 * summary that names the thing.
 */
export const FIELD_WEIGHTS = { summary: 3, tags: 3, body: 0.6 } as const;
/**
 * Length normalisation per field: bodies vary most, tag lists least. Summary 0.3 (was 0.5) was
 * fitted across the public sets and our generated one together (docs/search.md, ablation).
 */
export const FIELD_B = { summary: 0.3, tags: 0.3, body: 0.75 } as const;
export const K1 = 1.2;

/**
 * Everything query-time ranking can vary, gathered so the benchmarks can measure each method's
 * effect (an ablation) and the app runs the defaults below. None of it changes what is indexed.
 */
export interface RankingConfig {
  fieldWeights: { summary: number; tags: number; body: number };
  fieldB: { summary: number; tags: number; body: number };
  k1: number;
  /** Drop question and request words ("what kind of", "remember", "mentioned") from queries. */
  questionWords: boolean;
  /** RM3-style pseudo-relevance feedback (./feedback.ts); null = off. */
  feedback: FeedbackConfig | null;
  /** Re-rank of the best notes by how close the typed terms stand (./proximity.ts); null = off. */
  proximity: ProximityConfig | null;
}

export interface FeedbackConfig {
  /** Feedback notes: the best this many of the first pass. */
  docs: number;
  /** Expansion terms added at most. */
  terms: number;
  /** Share of the original query in the final one (RM3's λ; 1 = no feedback). */
  originalWeight: number;
  /**
   * Only words in at most this share of the notes are added: commoner ones tell notes apart too
   * little (idf) to be worth their long postings, which would make the second pass slow.
   */
  maxDocShare: number;
  /**
   * A feedback note weighs its score to this power: 1 = in proportion to the score (RM3); higher
   * lets a clear best note outweigh ones that only just made the cut (weights follow score gaps).
   * Search only: recall, which learns from its qualified notes, weighs them in proportion.
   */
  scorePower: number;
}

export const DEFAULT_RANKING: RankingConfig = {
  fieldWeights: FIELD_WEIGHTS,
  fieldB: FIELD_B,
  k1: K1,
  questionWords: true,
  // Fitted across REALTALK, SciFact and the generated set together, not per set (docs/search.md).
  feedback: { docs: 5, terms: 30, originalWeight: 0.7, maxDocShare: 0.1, scorePower: 4 },
  proximity: { pool: 20, window: 5, weight: 1, maxQueryTerms: 12 },
};
/**
 * IDF is computed as if the store held at least this many notes: in a store of 3 notes a word in
 * all 3 is not worthless — it would be rare in a typical store — so recall still works for a new
 * user, and `minScore` means roughly the same thing at 5 notes and at 5,000.
 */
export const IDF_MIN_DOCS = 20;

/** Per-message recall defaults (the `memory.recall.*` settings). */
export const RECALL_DEFAULTS = { perTurn: 3, budgetChars: 2000, minScore: 1.2 } as const;

/**
 * Cosine similarity (idf-weighted, field-weighted term vectors) at or above which remember flags an
 * existing note as a probable duplicate. Calibrated in bench/recall-quality (docs/search.md).
 */
export const DUPLICATE_THRESHOLD = 0.7;

/** The usage nudge: at most +10% of a note's text score, growing with log2 of its recall count. */
export const USAGE_MAX_RATE = 0.1;
const USAGE_RATE_PER_DOUBLING = 0.025;

export function bm25Idf(docFreq: number, docCount: number): number {
  const n = Math.max(docCount, IDF_MIN_DOCS, docFreq);
  return Math.log(1 + (n - docFreq + 0.5) / (docFreq + 0.5));
}

/** The key of a note in usage maps and `alreadyAttached` lists: `scope:id`. */
export function usageKey(scope: Scope, id: string): string {
  return `${scope}:${id}`;
}

export function usageCount(usage: UsageCounts | undefined, scope: Scope, id: string): number {
  if (!usage) return 0;
  const n = typeof usage === 'function' ? usage(scope, id) : usage.get(usageKey(scope, id));
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0;
}

/**
 * The usage part of a score: a bounded, multiplicative nudge. It is 0 for a note that matched
 * nothing and at most USAGE_MAX_RATE of the text score, and thresholds compare the text score
 * alone, so usage reorders close matches but never lifts a non-match over `minScore`.
 */
export function usageBonus(textScore: number, count: number): number {
  if (!(textScore > 0) || !(count > 0)) return 0;
  return textScore * Math.min(USAGE_MAX_RATE, USAGE_RATE_PER_DOUBLING * Math.log2(1 + count));
}

/** `memory.indexChars`: characters of the memory index in the system prompt. */
export const DEFAULT_INDEX_CHARS = 4000;

/** A score from its parts, always added in this order, so `why.parts` sum to the score exactly. */
export function sumParts(p: ScoreExplanation['parts']): number {
  return p.summary + p.tags + p.body + p.usage + (p.proximity ?? 0) + (p.semantic ?? 0);
}
