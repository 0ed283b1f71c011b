/**
 * Search speed: 200 queries against 10,000 generated notes, median wall and CPU time per query for
 * our index and for MiniSearch (BM25) on the same notes and queries in the same run, plus index build time
 * and ranking quality (MRR, recall@10) of both on the same labelled queries.
 *   npx tsx bench/search/run.ts [notes=10000] [queries=200] [seed=7]
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { minisearch, ours } from '../recall-quality/engines.js';
import type { Ranker } from '../recall-quality/engines.js';
import { generateCorpus } from '../recall-quality/generate.js';
import { fmt, quality } from '../recall-quality/metrics.js';
import { DEFAULT_RANKING } from '../../electron/memory/search/scoring.js';

const noteCount = Number(process.argv[2] ?? 10_000);
const queryCount = Number(process.argv[3] ?? 200);
const seed = Number(process.argv[4] ?? 7);
const LIMIT = 20;
const ROUNDS = 5;

const { notes, queries } = generateCorpus(noteCount, queryCount, seed);
console.log(
  `search bench: ${notes.length} notes, ${queries.length} queries, limit ${LIMIT}, median of ${ROUNDS} rounds per query`,
);

function build<T>(make: () => T): { value: T; ms: number } {
  const t0 = performance.now();
  const value = make();
  return { value, ms: performance.now() - t0 };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

interface Timing {
  /** Wall time: median and p95 over queries of each query's median of ROUNDS runs. */
  median: number;
  p95: number;
  /** The same for CPU time: independent of how long the query waited for a core. */
  cpuMedian: number;
  cpuP95: number;
  cpuShare: number;
  load: string;
}

/**
 * The process's CPU time in ms (getrusage: microseconds, brought up to date when read). Node 20 has
 * no per-thread CPU clock, and /proc/thread-self/schedstat is only updated at ticks and switches
 * (measured stale by 0.2–4 ms), so this counts V8's helper threads too; after the warm-up pass
 * they are mostly idle.
 */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

const percentiles = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return { median: median(xs), p95: sorted[Math.floor(sorted.length * 0.95)]! };
};

/** Per query: the median of ROUNDS timings (after one warm-up pass over all queries); then the median over queries. */
function timeQueries(r: Ranker): Timing {
  for (const q of queries) r.search(q.query, LIMIT);
  const wall0 = performance.now();
  const cpu0 = process.cpuUsage();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (const q of queries) {
    const ts: number[] = [];
    const cs: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const c0 = cpuMs();
      const t0 = performance.now();
      r.search(q.query, LIMIT);
      ts.push(performance.now() - t0);
      cs.push(cpuMs() - c0);
    }
    wall.push(median(ts));
    cpu.push(median(cs));
  }
  // The process's CPU share beside it: on a loaded machine the wall time includes waiting for a core.
  const used = process.cpuUsage(cpu0);
  const cpuShare = (used.user + used.system) / 1000 / (performance.now() - wall0);
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  const w = percentiles(wall);
  const c = percentiles(cpu);
  return { median: w.median, p95: w.p95, cpuMedian: c.median, cpuP95: c.p95, cpuShare, load };
}

const ourBuild = build(() => ours(notes));
const msBuild = build(() => minisearch(notes));
console.log(
  `index build (${notes.length} notes): ours ${ourBuild.ms.toFixed(0)} ms, MiniSearch ${msBuild.ms.toFixed(0)} ms (ratio ${(ourBuild.ms / msBuild.ms).toFixed(2)})`,
);

// Incremental upkeep: replace 200 notes one at a time (what a watcher event costs).
const t0 = performance.now();
for (const n of notes.slice(0, 200)) ourBuild.value.index.upsert({ ...n, body: `${n.body} edited.` });
console.log(`ours: upsert of an existing note ${((performance.now() - t0) / 200).toFixed(3)} ms each`);

const a = timeQueries(ourBuild.value);
const b = timeQueries(msBuild.value);
const ms = (x: number) => `${x.toFixed(3)} ms`;
const line = (t: Timing) =>
  `wall median ${ms(t.median)} (p95 ${ms(t.p95)}); CPU median ${ms(t.cpuMedian)} (p95 ${ms(t.cpuP95)})`;
console.log('per query (CPU: the process, getrusage):');
console.log(`  ours                    ${line(a)}`);
console.log(`  MiniSearch              ${line(b)}`);
console.log(
  `ratio ours / MiniSearch: wall ${(a.median / b.median).toFixed(2)}, CPU ${(a.cpuMedian / b.cpuMedian).toFixed(2)} (${a.cpuMedian < b.cpuMedian ? 'faster' : 'SLOWER'})`,
);
console.log(
  `target median ≤ 1 ms: CPU ${a.cpuMedian <= 1 ? 'met' : 'NOT met'}, wall ${a.median <= 1 ? 'met' : 'NOT met'} (the wall figure includes waiting for a core)`,
);

// What the proximity re-rank costs (it reads the best 20 notes' text at query time): same index, same run.
ourBuild.value.index.configureRanking({ proximity: null });
const np = timeQueries(ourBuild.value);
ourBuild.value.index.configureRanking({ proximity: DEFAULT_RANKING.proximity });
console.log(`  ours without proximity  ${line(np)}`);
for (const [name, t] of [
  ['ours', a],
  ['ours without proximity', np],
  ['MiniSearch', b],
] as const)
  console.log(
    `  ${name}: process CPU ${(100 * t.cpuShare).toFixed(0)}% of wall time while timed; load average ${t.load}`,
  );

const qa = quality(
  queries,
  queries.map((q) => ourBuild.value.search(q.query, 10)),
);
const qb = quality(
  queries,
  queries.map((q) => msBuild.value.search(q.query, 10)),
);
console.log(`ranking on the same labelled queries:\n  ours        ${fmt(qa)}\n  MiniSearch  ${fmt(qb)}`);

// What else runs per message / per write: recall on a chat-sized message, remember's related check.
const index = ourBuild.value.index;
const messages = queries.map((q, i) => `${q.query}. ${notes[(i * 37) % notes.length]!.body}`);
const long = notes
  .slice(0, 50)
  .map((n) => n.body)
  .join('\n'); // a ~20 KB pasted log
const timeEach = <T>(xs: T[], f: (x: T) => unknown): number =>
  median(
    xs.map((x) => {
      const t = performance.now();
      f(x);
      return performance.now() - t;
    }),
  );
console.log(
  `recall, median per message (~${Math.round(messages.reduce((a, m) => a + m.length, 0) / messages.length)} chars): ${timeEach(messages, (m) => index.recall(m)).toFixed(3)} ms`,
);
console.log(
  `recall on a ${Math.round(long.length / 1000)} KB message: ${timeEach([long, long, long], (m) => index.recall(m)).toFixed(3)} ms`,
);
console.log(
  `related (remember), median per note: ${timeEach(notes.slice(0, 200), (n) => index.related(n)).toFixed(3)} ms`,
);
