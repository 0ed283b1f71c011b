/**
 * The ranking methods measured one at a time (docs/search.md, "Ablation"). Each step adds one
 * method to the one before; the last step equals DEFAULT_RANKING. Shared by bench/recall-public
 * and bench/recall-quality so both sets report the same steps.
 */
import { DEFAULT_RANKING, FIELD_B, FIELD_WEIGHTS } from '../../electron/memory/search/scoring.js';
import type { RankingConfig } from '../../electron/memory/search/scoring.js';

export interface Step {
  name: string;
  change: Partial<RankingConfig>;
}

const BEFORE_B = { ...FIELD_B, summary: 0.5 };
const BEFORE_W = { ...FIELD_WEIGHTS, body: 0.5 };
const FEEDBACK = DEFAULT_RANKING.feedback!;
/** RM3 as first adopted: feedback notes weighted in proportion to their scores. */
const LINEAR_FEEDBACK = { ...FEEDBACK, scorePower: 1 };
const PROXIMITY = DEFAULT_RANKING.proximity!;

export const ABLATION_STEPS: Step[] = [
  {
    name: 'ours before (BM25F 3/3/0.5, stemming, CJK)',
    change: {
      fieldWeights: BEFORE_W,
      fieldB: BEFORE_B,
      questionWords: false,
      feedback: null,
      proximity: null,
    },
  },
  {
    name: '+ question words dropped',
    change: { fieldWeights: BEFORE_W, fieldB: BEFORE_B, feedback: null, proximity: null },
  },
  {
    name: '+ summary b 0.5 → 0.3 (fitted)',
    change: { fieldWeights: BEFORE_W, feedback: null, proximity: null },
  },
  {
    name: '+ RM3 feedback (5 notes, 30 terms, λ 0.7, df ≤ 10%)',
    change: { fieldWeights: BEFORE_W, feedback: LINEAR_FEEDBACK, proximity: null },
  },
  {
    name: '+ proximity re-rank (best 20, window 5, weight 1)',
    change: { fieldWeights: BEFORE_W, feedback: LINEAR_FEEDBACK },
  },
  { name: '+ feedback notes weighted by score⁴ (score gaps)', change: { fieldWeights: BEFORE_W } },
  { name: '+ body weight 0.5 → 0.6 (fitted) = ours', change: {} },
];

export const ALTERNATIVES: Step[] = [
  { name: 'alt: RM3 without the df cap (slower)', change: { feedback: { ...FEEDBACK, maxDocShare: 1 } } },
  { name: 'alt: RM3 df cap 20% (not 10%)', change: { feedback: { ...FEEDBACK, maxDocShare: 0.2 } } },
  {
    name: 'alt: body weight 0.75 (not 0.6)',
    change: { fieldWeights: { ...DEFAULT_RANKING.fieldWeights, body: 0.75 } },
  },
  {
    name: 'alt: body weight 1 (not 0.6)',
    change: { fieldWeights: { ...DEFAULT_RANKING.fieldWeights, body: 1 } },
  },
  { name: 'alt: k1 0.9 (not 1.2)', change: { k1: 0.9 } },
  {
    name: 'alt: RM3 10 notes, 10 terms, λ 0.5 (Anserini)',
    change: { feedback: { docs: 10, terms: 10, originalWeight: 0.5, maxDocShare: 1, scorePower: 1 } },
  },
  {
    name: 'alt: feedback notes weighted by score² (not ⁴)',
    change: { feedback: { ...FEEDBACK, scorePower: 2 } },
  },
  { name: 'alt: feedback from 3 notes (not 5)', change: { feedback: { ...FEEDBACK, docs: 3 } } },
  { name: 'alt: feedback from 8 notes (not 5)', change: { feedback: { ...FEEDBACK, docs: 8 } } },
  { name: 'alt: feedback 40 terms (not 30)', change: { feedback: { ...FEEDBACK, terms: 40 } } },
  { name: 'alt: feedback λ 0.6 (not 0.7)', change: { feedback: { ...FEEDBACK, originalWeight: 0.6 } } },
  { name: 'alt: body b 0.5 (not 0.75)', change: { fieldB: { ...FIELD_B, body: 0.5 } } },
  { name: 'alt: proximity weight 0.25', change: { proximity: { ...PROXIMITY, weight: 0.25 } } },
  { name: 'alt: proximity weight 2', change: { proximity: { ...PROXIMITY, weight: 2 } } },
  { name: 'alt: proximity window 10', change: { proximity: { ...PROXIMITY, window: 10 } } },
  { name: 'alt: proximity window 2', change: { proximity: { ...PROXIMITY, window: 2 } } },
  { name: 'alt: proximity over the best 50', change: { proximity: { ...PROXIMITY, pool: 50 } } },
  {
    name: 'alt: proximity for queries up to 32 terms (not 12)',
    change: { proximity: { ...PROXIMITY, maxQueryTerms: 32 } },
  },
];
