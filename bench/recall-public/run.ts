/**
 * Recall on public retrieval sets, measured: grep-style, BM25 (MiniSearch as it comes, and a
 * reference BM25 set up like the published baseline) and ours, in one run.
 *   npx tsx bench/recall-public/run.ts --scifact DIR --realtalk DIR [--alternatives]
 * (or the environment variables RECALL_SCIFACT / RECALL_REALTALK). How to obtain the files:
 * docs/search.md, "Public benchmarks". A set whose path is missing is reported and skipped.
 * With RECALL_EMBEDDINGS_URL and RECALL_EMBEDDINGS_MODEL set, the hybrid (semantic recall on) is
 * measured too and its gain printed (./hybrid.ts); `--hybrid-only` skips the lexical engines.
 */
import { existsSync } from 'node:fs';
import { minisearch, ours, termFrequency } from '../recall-quality/engines.js';
import type { Ranker } from '../recall-quality/engines.js';
import { quality } from '../recall-quality/metrics.js';
import type { Quality } from '../recall-quality/metrics.js';
import { referenceBm25 } from './bm25.js';
import { DEFAULT_RANKING } from '../../electron/memory/search/scoring.js';
import type { RankingConfig } from '../../electron/memory/search/scoring.js';
import { ABLATION_STEPS, ALTERNATIVES } from './ablation.js';
import { loadRealTalk, loadSciFact } from './sets.js';
import { reportHybrid } from './hybrid.js';
import type { PublicSet } from './sets.js';

function arg(name: string, env: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : process.env[env];
}

const sources: { name: string; path: string | undefined; load: (dir: string) => PublicSet }[] = [
  { name: 'REALTALK', path: arg('realtalk', 'RECALL_REALTALK'), load: loadRealTalk },
  { name: 'SciFact', path: arg('scifact', 'RECALL_SCIFACT'), load: loadSciFact },
];

type Engine = { name: string; make: (notes: Parameters<typeof ours>[0]) => Ranker };
const baselines: Engine[] = [
  { name: 'grep-style (term frequency)', make: termFrequency },
  { name: 'BM25 (MiniSearch defaults)', make: (n) => minisearch(n) },
  { name: 'BM25 reference (Lucene-style)', make: (n) => referenceBm25(n) },
];
function oursWith(change: Partial<RankingConfig>): Engine['make'] {
  return (notes) => {
    const r = ours(notes);
    r.index.configureRanking({ ...DEFAULT_RANKING, ...change });
    return r;
  };
}
/** Ours, one method added per step; the last step is the shipped default. */
const ablation: Engine[] = ABLATION_STEPS.map((s) => ({ name: s.name, make: oursWith(s.change) }));
/** Variants measured and not adopted (each on top of the defaults). */
const alternatives: Engine[] = ALTERNATIVES.map((s) => ({ name: s.name, make: oursWith(s.change) }));

function measure(set: PublicSet, make: Engine['make']): Quality {
  const judged = [];
  const ranked = [];
  for (const store of set.stores) {
    const ranker = make(store.notes);
    for (const q of store.queries) {
      judged.push(q);
      ranked.push(ranker.search(q.query, 10));
    }
  }
  return quality(judged, ranked);
}

/**
 * Per-message recall with its default rules (summary/tag match, minScore 1.2, 3 notes, 2,000
 * characters), each question taken as the user's message: how often it attaches anything, how
 * often an evidence note, and what share of what it attaches is evidence.
 */
function measureRecall(set: PublicSet, change: Partial<RankingConfig>): string {
  let questions = 0;
  let any = 0;
  let hit = 0;
  let attached = 0;
  let relevant = 0;
  for (const store of set.stores) {
    const { index } = ours(store.notes);
    index.configureRanking({ ...DEFAULT_RANKING, ...change });
    for (const q of store.queries) {
      const ids = index.recall(q.query).notes.map((n) => n.id);
      const good = ids.filter((id) => q.relevant.includes(id)).length;
      questions++;
      if (ids.length > 0) any++;
      if (good > 0) hit++;
      attached += ids.length;
      relevant += good;
    }
  }
  const pct = (x: number, n: number) => `${((100 * x) / Math.max(n, 1)).toFixed(1)}%`.padStart(6);
  return `${pct(any, questions)} attach  ${pct(hit, questions)} attach evidence  ${pct(relevant, attached)} of attached notes are evidence`;
}

for (const src of sources) {
  if (!src.path || !existsSync(src.path)) {
    console.log(
      `${src.name}: not measured — no data (pass --${src.name.toLowerCase()} DIR; see docs/search.md)`,
    );
    continue;
  }
  const set = src.load(src.path);
  const notes = set.stores.reduce((a, s) => a + s.notes.length, 0);
  const queries = set.stores.reduce((a, s) => a + s.queries.length, 0);
  console.log(`\n${set.name}: ${notes} notes in ${set.stores.length} store(s), ${queries} questions`);
  if (process.argv.includes('--hybrid-only')) {
    await reportHybrid(set);
    continue;
  }
  console.log(`  ${'engine'.padEnd(62)} recall@10  MRR@10  nDCG@10`);
  for (const e of [
    ...baselines,
    ...ablation,
    ...(process.argv.includes('--alternatives') ? alternatives : []),
  ]) {
    const q = measure(set, e.make);
    console.log(
      `  ${e.name.padEnd(62)} ${q.recallAt10.toFixed(3).padStart(9)}  ${q.mrr.toFixed(3).padStart(6)}  ${q.ndcgAt10.toFixed(3).padStart(7)}`,
    );
  }
  console.log(`  recall (per message, default rules), by ablation step:`);
  for (const step of ABLATION_STEPS)
    console.log(`    ${step.name.padEnd(60)} ${measureRecall(set, step.change)}`);
  await reportHybrid(set);
}
