/**
 * "Same topic" similarity between notes of one scope (documented in docs/cleanup.md).
 *
 * A note's features are its summary's terms (the core's analyzer: lower-cased, English stop words
 * dropped, Porter-stemmed, CJK runs as overlapping bigrams) and its tags (lower-cased, whole). Every
 * feature is weighted by a smoothed inverse document frequency within the scope,
 *   w(f) = ln(1 + N / df(f)),  and tags additionally × TAG_WEIGHT,
 * so a word every note shares ("use", "project") counts little and a rare one counts much. The
 * similarity is the weighted Jaccard index of the two feature sets:
 *   sim(a, b) = Σ w(a ∩ b) / Σ w(a ∪ b)              (0..1)
 * Two notes are "the same topic" when sim ≥ SAME_TOPIC_THRESHOLD and their summaries alone also
 * overlap (summary-only weighted Jaccard ≥ SUMMARY_THRESHOLD), so shared tags alone never suffice.
 */
export const SAME_TOPIC_THRESHOLD = 0.4;
export const SUMMARY_THRESHOLD = 0.3;
export const TAG_WEIGHT = 1.5;
/** A same-topic group holds at least two and at most six notes. */
export const MAX_GROUP_SIZE = 6;

export type Analyzer = (text: string) => string[];

/** What similarity needs of a note. */
export interface SimilarityInput {
  id: string;
  summary: string;
  tags: readonly string[];
}

/**
 * The features of every note, interned to integers, with weights. Each note's feature ids are
 * sorted by the global order "rarest first" (ascending document frequency, ties by feature id), the
 * order the prefix filter in same-topic.ts relies on.
 */
export interface FeatureTable {
  /** Per note: feature ids sorted rarest first. */
  features: Int32Array[];
  /** Per feature id: 1 for a tag, 0 for a summary term. */
  isTag: Uint8Array;
  /** Weight per feature id. */
  weight: Float64Array;
  /** Per note: the sum of its feature weights, and of its summary feature weights. */
  total: Float64Array;
  summaryTotal: Float64Array;
}

export function buildFeatureTable(notes: readonly SimilarityInput[], analyze: Analyzer): FeatureTable {
  // Summary terms and tags are interned in separate maps (a tag "design" and the word "design" are
  // different features); per-note de-duplication uses a stamp per feature id instead of a Set.
  const termIds = new Map<string, number>();
  const tagIds = new Map<string, number>();
  const df: number[] = [];
  const tagFlags: number[] = [];
  const stamp: number[] = [];
  const intern = (map: Map<string, number>, key: string, tag: number): number => {
    let id = map.get(key);
    if (id === undefined) {
      id = df.length;
      map.set(key, id);
      df.push(0);
      tagFlags.push(tag);
      stamp.push(-1);
    }
    return id;
  };
  const raw: number[][] = [];
  for (let i = 0; i < notes.length; i++) {
    const note = notes[i]!;
    const ids: number[] = [];
    const add = (id: number): void => {
      if (stamp[id] === i) return;
      stamp[id] = i;
      df[id]!++;
      ids.push(id);
    };
    for (const term of analyze(note.summary)) add(intern(termIds, term, 0));
    for (const tag of note.tags) {
      const t = tag.trim().toLowerCase();
      if (t) add(intern(tagIds, t, 1));
    }
    raw.push(ids);
  }

  const n = notes.length;
  const weight = new Float64Array(df.length);
  const isTag = Uint8Array.from(tagFlags);
  for (let f = 0; f < df.length; f++) {
    weight[f] = Math.log(1 + n / (df[f] ?? 1)) * (isTag[f] ? TAG_WEIGHT : 1);
  }
  // Global order: rarest first. Renumber features so that order is simply ascending id.
  const order = Array.from(df.keys()).sort((a, b) => (df[a] ?? 0) - (df[b] ?? 0) || a - b);
  const rank = new Int32Array(df.length);
  order.forEach((f, r) => (rank[f] = r));
  const rankedWeight = new Float64Array(df.length);
  const rankedIsTag = new Uint8Array(df.length);
  order.forEach((f, r) => {
    rankedWeight[r] = weight[f] ?? 0;
    rankedIsTag[r] = isTag[f] ?? 0;
  });

  const features: Int32Array[] = [];
  const total = new Float64Array(n);
  const summaryTotal = new Float64Array(n);
  raw.forEach((ids, i) => {
    const arr = Int32Array.from(ids, (f) => rank[f] ?? 0).sort();
    features.push(arr);
    let t = 0;
    let s = 0;
    for (const f of arr) {
      const w = rankedWeight[f] ?? 0;
      t += w;
      if (!rankedIsTag[f]) s += w;
    }
    total[i] = t;
    summaryTotal[i] = s;
  });
  return { features, isTag: rankedIsTag, weight: rankedWeight, total, summaryTotal };
}

export interface PairSimilarity {
  /** Weighted Jaccard over summary terms and tags. */
  combined: number;
  /** Weighted Jaccard over summary terms only. */
  summary: number;
}

/** Weighted Jaccard of notes i and j (a merge of their sorted feature arrays). */
export function pairSimilarity(table: FeatureTable, i: number, j: number): PairSimilarity {
  const a = table.features[i]!;
  const b = table.features[j]!;
  const w = table.weight;
  const tag = table.isTag;
  let shared = 0;
  let sharedSummary = 0;
  let x = 0;
  let y = 0;
  while (x < a.length && y < b.length) {
    const fa = a[x]!;
    const fb = b[y]!;
    if (fa === fb) {
      const wf = w[fa]!;
      shared += wf;
      if (!tag[fa]) sharedSummary += wf;
      x++;
      y++;
    } else if (fa < fb) x++;
    else y++;
  }
  const union = table.total[i]! + table.total[j]! - shared;
  const summaryUnion = table.summaryTotal[i]! + table.summaryTotal[j]! - sharedSummary;
  return {
    combined: union > 0 ? shared / union : 0,
    summary: summaryUnion > 0 ? sharedSummary / summaryUnion : 0,
  };
}

export function isSameTopic(sim: PairSimilarity): boolean {
  return sim.combined >= SAME_TOPIC_THRESHOLD && sim.summary >= SUMMARY_THRESHOLD;
}
