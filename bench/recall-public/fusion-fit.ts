/**
 * Fits the semantic weight of search's score fusion (electron/memory/search/fusion.ts) across
 * sets, never to one: leave-one-set-out cross-validation over REALTALK, SciFact and the generated
 * set — for each set, the weight is chosen on the other sets and reported on the one left out —
 * then the weight chosen on all of them (the default for this model).
 *   RECALL_EMBEDDINGS_URL=… RECALL_EMBEDDINGS_MODEL=… \
 *   npx tsx bench/recall-public/fusion-fit.ts --realtalk DIR --scifact DIR
 * (or RECALL_REALTALK / RECALL_SCIFACT). The choice: the weight whose worst gain over the sets
 * it is fitted on, in (recall@10 + MRR@10) / 2 against words alone, is highest (the smaller on a
 * tie) — a weight that makes any of them worse loses to weight 0, which is words alone.
 */
import { existsSync } from 'node:fs';
import { generateCorpus } from '../recall-quality/generate.js';
import type { Quality } from '../recall-quality/metrics.js';
import {
  embeddingsFromEnv,
  equalRankFusion,
  fmtQuality,
  listsOrNull,
  measureFusion,
  scoreFusion,
  wordsAlone,
} from './hybrid.js';
import type { SetLists } from './hybrid-lists.js';
import { loadRealTalk, loadSciFact } from './sets.js';
import type { PublicSet } from './sets.js';

const WEIGHTS = [0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.8];

function arg(name: string, env: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : process.env[env];
}

const provider = embeddingsFromEnv();
if (!provider) {
  console.log('set RECALL_EMBEDDINGS_URL and RECALL_EMBEDDINGS_MODEL to an embeddings endpoint');
  process.exit(2);
}

const sets: PublicSet[] = [];
const generated = generateCorpus(2000, 400, 42);
sets.push({ name: 'generated-2000-42', stores: [{ notes: generated.notes, queries: generated.queries }] });
for (const [name, load] of [
  ['realtalk', loadRealTalk],
  ['scifact', loadSciFact],
] as const) {
  const dir = arg(name, `RECALL_${name.toUpperCase()}`);
  if (dir && existsSync(dir)) sets.push(load(dir));
  else console.log(`${name}: not measured — no data (pass --${name} DIR; see docs/search.md)`);
}

const lists: SetLists[] = [];
for (const set of sets) {
  console.log(`embedding ${set.name} (cached after the first run)…`);
  const l = await listsOrNull(set, provider);
  if (l) lists.push(l);
}

/** Per set: words alone, and the score fusion at each weight of the grid. */
const lexical = new Map(lists.map((l) => [l.name, measureFusion(l, wordsAlone)]));
const byWeight = new Map(
  WEIGHTS.map((w) => [w, new Map(lists.map((l) => [l.name, measureFusion(l, scoreFusion(w))]))]),
);
const gain = (q: Quality, base: Quality) => (q.recallAt10 - base.recallAt10 + q.mrr - base.mrr) / 2;

/** The weight whose worst gain over `names` is highest; the smaller weight on a tie. */
function fit(names: readonly string[]): number {
  let best = 0;
  let bestWorst = -Infinity;
  for (const w of WEIGHTS) {
    const worst = Math.min(...names.map((n) => gain(byWeight.get(w)!.get(n)!, lexical.get(n)!)));
    if (worst > bestWorst + 1e-9) {
      bestWorst = worst;
      best = w;
    }
  }
  return best;
}

console.log(`\nscore fusion by semantic weight (${provider.space}), recall@10 / MRR@10:`);
const names = lists.map((l) => l.name);
console.log(`  ${'weight'.padEnd(8)} ${names.map((n) => n.padEnd(20)).join(' ')}`);
for (const w of WEIGHTS)
  console.log(
    `  ${String(w).padEnd(8)} ${names
      .map((n) => {
        const q = byWeight.get(w)!.get(n)!;
        return `${q.recallAt10.toFixed(3)} / ${q.mrr.toFixed(3)}`.padEnd(20);
      })
      .join(' ')}`,
  );

console.log('\nper set (the fused weight chosen on the other sets):');
for (const l of lists) {
  const others = names.filter((n) => n !== l.name);
  const w = others.length > 0 ? fit(others) : 0;
  console.log(`  ${l.name}`);
  console.log(`    ${'words alone'.padEnd(44)} ${fmtQuality(lexical.get(l.name)!)}`);
  console.log(
    `    ${'equal-weight rank fusion (until stop 25)'.padEnd(44)} ${fmtQuality(measureFusion(l, equalRankFusion))}`,
  );
  console.log(
    `    ${`score fusion, weight ${w} (fitted on ${others.join(', ') || 'nothing'})`.padEnd(44)} ${fmtQuality(byWeight.get(w)!.get(l.name)!)}`,
  );
}
console.log(`\nweight fitted on all ${names.length} sets: ${fit(names)}`);
