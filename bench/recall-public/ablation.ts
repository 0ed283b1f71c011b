/**
 * The ranking methods measured one at a time (docs/search.md, "Ablation"). Each step adds one
 * method to the one before; the last step equals DEFAULT_RANKING. Shared by bench/recall-public
 * and bench/recall-quality so both sets report the same steps.
 */
import { DEFAULT_RANKING, FIELD_B } from '../../electron/memory/search/scoring.js';
import type { RankingConfig } from '../../electron/memory/search/scoring.js';

export interface Step {
  name: string;
  change: Partial<RankingConfig>;
}

const BEFORE_B = { ...FIELD_B, summary: 0.5 };
const PROXIMITY = DEFAULT_RANKING.proximity!;

export const ABLATION_STEPS: Step[] = [
  {
    name: 'ours before (BM25F 3/3/0.5, stemming, CJK)',
    change: { fieldB: BEFORE_B, questionWords: false, feedback: null, proximity: null },
  },
  { name: '+ question words dropped', change: { fieldB: BEFORE_B, feedback: null, proximity: null } },
  { name: '+ summary b 0.5 → 0.3 (fitted)', change: { feedback: null, proximity: null } },
  { name: '+ RM3 feedback (5 notes, 30 terms, λ 0.7, df ≤ 10%)', change: { proximity: null } },
  { name: '+ proximity re-rank (best 20, window 5, weight 1) = ours', change: {} },
];

export const ALTERNATIVES: Step[] = [
  {
    name: 'alt: RM3 without the df cap (slower)',
    change: { feedback: { ...DEFAULT_RANKING.feedback!, maxDocShare: 1 } },
  },
  {
    name: 'alt: RM3 df cap 20% (not 10%)',
    change: { feedback: { ...DEFAULT_RANKING.feedback!, maxDocShare: 0.2 } },
  },
  {
    name: 'alt: body weight 1 (not 0.5)',
    change: { fieldWeights: { ...DEFAULT_RANKING.fieldWeights, body: 1 } },
  },
  { name: 'alt: k1 0.9 (not 1.2)', change: { k1: 0.9 } },
  {
    name: 'alt: RM3 10 notes, 10 terms, λ 0.5 (Anserini)',
    change: { feedback: { docs: 10, terms: 10, originalWeight: 0.5, maxDocShare: 1 } },
  },
  {
    name: 'alt: RM3 10 notes, 20 terms, λ 0.7',
    change: { feedback: { docs: 10, terms: 20, originalWeight: 0.7, maxDocShare: 1 } },
  },
  { name: 'alt: proximity weight 0.25', change: { proximity: { ...PROXIMITY, weight: 0.25 } } },
  { name: 'alt: proximity weight 2', change: { proximity: { ...PROXIMITY, weight: 2 } } },
  { name: 'alt: proximity window 10', change: { proximity: { ...PROXIMITY, window: 10 } } },
  { name: 'alt: proximity window 2', change: { proximity: { ...PROXIMITY, window: 2 } } },
  { name: 'alt: proximity over the best 50', change: { proximity: { ...PROXIMITY, pool: 50 } } },
];
