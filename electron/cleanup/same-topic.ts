import {
  buildFeatureTable,
  isSameTopic,
  MAX_GROUP_SIZE,
  pairSimilarity,
  SAME_TOPIC_THRESHOLD,
  type Analyzer,
  type FeatureTable,
  type SimilarityInput,
} from './similarity.js';

export interface SameTopicEdge {
  a: number;
  b: number;
  sim: number;
}

export interface SameTopicGroup {
  /** Indexes into the input, ascending. */
  members: number[];
  /** Average pairwise combined similarity. */
  similarity: number;
}

export interface SameTopicStats {
  notes: number;
  candidatePairs: number;
  edges: number;
}

/**
 * Pairs that are the same topic, found with a prefix filter over an inverted index: only notes
 * sharing one of their rarest features are compared. Exact — it finds every pair the naive
 * all-pairs comparison finds. Why: notes are visited in ascending total weight W. For weighted
 * Jaccard ≥ t the shared weight O satisfies O ≥ t·W_i (probe side, the heavier note i) and
 * O ≥ 2t/(1+t)·W_j (index side, the lighter note j, since O ≥ t/(1+t)·(W_i + W_j)). A prefix (in
 * the global rarest-first order) whose remaining weight is below that bound must contain the first
 * shared feature, so the pair meets in the postings of that feature. Pairs failing the length
 * filter (W_j < t·W_i) cannot reach t and are skipped from the front of each postings list.
 */
export function sameTopicEdges(table: FeatureTable, stats?: SameTopicStats): SameTopicEdge[] {
  const n = table.features.length;
  const t = SAME_TOPIC_THRESHOLD;
  const slack = 1 - 1e-9; // prefixes a hair longer than needed: rounding never loses a pair
  const indexBound = (2 * t) / (1 + t);
  const order = Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => table.total[a]! - table.total[b]! || a - b,
  );
  const postings = new Map<number, { items: number[]; start: number }>();
  const seen = new Int32Array(n).fill(-1);
  // The probe note's features, marked in a dense array: verifying a candidate is then one pass over
  // the candidate's features with no allocation (this loop runs ~10^5 times at the note limit).
  const mark = new Int32Array(table.weight.length).fill(-1);
  const { weight, isTag, total, summaryTotal } = table;
  const edges: SameTopicEdge[] = [];
  let candidates = 0;
  for (const i of order) {
    const feats = table.features[i]!;
    const w = total[i]!;
    if (w <= 0) continue;
    for (let k = 0; k < feats.length; k++) mark[feats[k]!] = i;
    const ws = summaryTotal[i]!;
    const minW = t * w * slack;
    let probe = 0;
    let rest = w;
    while (probe < feats.length && rest >= t * w * slack) rest -= weight[feats[probe++]!]!;
    for (let k = 0; k < probe; k++) {
      const list = postings.get(feats[k]!);
      if (!list) continue;
      const items = list.items;
      while (list.start < items.length && total[items[list.start]!]! < minW) list.start++;
      for (let x = list.start; x < items.length; x++) {
        const j = items[x]!;
        if (seen[j] === i) continue;
        seen[j] = i;
        candidates++;
        const fj = table.features[j]!;
        let shared = 0;
        let sharedSummary = 0;
        for (let y = 0; y < fj.length; y++) {
          const f = fj[y]!;
          if (mark[f] === i) {
            const wf = weight[f]!;
            shared += wf;
            if (!isTag[f]) sharedSummary += wf;
          }
        }
        const combined = shared / (w + total[j]! - shared);
        const summaryUnion = ws + summaryTotal[j]! - sharedSummary;
        const summary = summaryUnion > 0 ? sharedSummary / summaryUnion : 0;
        if (isSameTopic({ combined, summary }))
          edges.push(j < i ? { a: j, b: i, sim: combined } : { a: i, b: j, sim: combined });
      }
    }
    let index = 0;
    rest = w;
    while (index < feats.length && rest >= indexBound * w * slack) rest -= weight[feats[index++]!]!;
    for (let k = 0; k < index; k++) {
      const f = feats[k]!;
      const list = postings.get(f);
      if (list) list.items.push(i);
      else postings.set(f, { items: [i], start: 0 });
    }
  }
  if (stats) {
    stats.notes = n;
    stats.candidatePairs = candidates;
    stats.edges = edges.length;
  }
  return edges;
}

/** The baseline the benchmark compares against: every pair compared. Same result as sameTopicEdges. */
export function sameTopicEdgesNaive(table: FeatureTable): SameTopicEdge[] {
  const n = table.features.length;
  const edges: SameTopicEdge[] = [];
  for (let j = 0; j < n; j++) {
    for (let i = j + 1; i < n; i++) {
      const sim = pairSimilarity(table, j, i);
      if (isSameTopic(sim)) edges.push({ a: j, b: i, sim: sim.combined });
    }
  }
  return edges;
}

/**
 * Groups of 2–6 notes: average-linkage agglomeration over the same-topic pairs, strongest pair
 * first. Two groups join only when the result has at most six notes and the average similarity
 * across them stays at or above the threshold, so a chain a~b~c where a and c have nothing in
 * common does not become one group. Deterministic for a given input order.
 */
export function groupSameTopic(
  table: FeatureTable,
  edges: readonly SameTopicEdge[],
  ids: readonly string[],
): SameTopicGroup[] {
  const sorted = [...edges].sort(
    (x, y) => y.sim - x.sim || cmp(ids[x.a]!, ids[y.a]!) || cmp(ids[x.b]!, ids[y.b]!),
  );
  const groupOf = new Map<number, number[]>();
  const simCache = new Map<string, number>();
  const sim = (a: number, b: number): number => {
    const key = a < b ? `${a}:${b}` : `${b}:${a}`;
    let s = simCache.get(key);
    if (s === undefined) {
      s = pairSimilarity(table, a, b).combined;
      simCache.set(key, s);
    }
    return s;
  };
  for (const e of edges) simCache.set(e.a < e.b ? `${e.a}:${e.b}` : `${e.b}:${e.a}`, e.sim);

  for (const edge of sorted) {
    const ga = groupOf.get(edge.a) ?? [edge.a];
    const gb = groupOf.get(edge.b) ?? [edge.b];
    if (ga === gb) continue;
    if (ga.length + gb.length > MAX_GROUP_SIZE) continue;
    let sum = 0;
    for (const x of ga) for (const y of gb) sum += sim(x, y);
    if (sum / (ga.length * gb.length) < SAME_TOPIC_THRESHOLD) continue;
    const merged = [...ga, ...gb];
    for (const m of merged) groupOf.set(m, merged);
  }

  const groups: SameTopicGroup[] = [];
  const done = new Set<number[]>();
  for (const members of groupOf.values()) {
    if (done.has(members)) continue;
    done.add(members);
    members.sort((a, b) => a - b);
    let sum = 0;
    let pairs = 0;
    for (let x = 0; x < members.length; x++) {
      for (let y = x + 1; y < members.length; y++) {
        sum += sim(members[x]!, members[y]!);
        pairs++;
      }
    }
    groups.push({ members, similarity: pairs ? sum / pairs : 0 });
  }
  return groups.sort((a, b) => a.members[0]! - b.members[0]!);
}

/** The whole same-topic analysis of one scope. */
export function findSameTopicGroups(
  notes: readonly SimilarityInput[],
  analyze: Analyzer,
  stats?: SameTopicStats,
): Array<{ ids: string[]; similarity: number }> {
  const table = buildFeatureTable(notes, analyze);
  const edges = sameTopicEdges(table, stats);
  const ids = notes.map((n) => n.id);
  return groupSameTopic(table, edges, ids).map((g) => ({
    ids: g.members.map((m) => ids[m]!),
    similarity: g.similarity,
  }));
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
