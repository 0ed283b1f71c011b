import type { Scope } from '../../../shared/note.js';
import { noteIdKey } from '../../../shared/note-id.js';
import { analyze, analyzeQuery, cjkChars } from './analyze.js';
import { expandAsTyped, type Vocabulary } from './as-you-type.js';
import { expandQuery } from './feedback.js';
import { SegmentDamagedError, type IndexSegment } from './index-segment.js';
import type { FeedbackDoc, WeightedQuery } from './feedback.js';
import { recall } from './recall.js';
import { hiddenInProject } from './project-tag.js';
import {
  bm25Idf,
  DEFAULT_RANKING,
  sumParts,
  DUPLICATE_THRESHOLD,
  FIELD_WEIGHTS,
  usageBonus,
  usageCount,
} from './scoring.js';
import type { FeedbackConfig, RankingConfig } from './scoring.js';
import { selectTop } from './top-k.js';
import { lowerBound, SortedTerms } from './term-list.js';
import { positionsOf, proximityScore } from './proximity.js';
import { fuseScores, unmatchedHit } from './fusion.js';
import type { FieldPositions, ProximityConfig, ProximityQuery } from './proximity.js';
import type {
  DocumentAnalysis,
  NoteLike,
  RankOptions,
  RecallOptions,
  RecallResult,
  RelatedOptions,
  RelatedResult,
  ScopeSelection,
  SearchDocument,
  SearchHit,
  SearchOptions,
  UsageCounts,
} from './types.js';

export type { DocumentAnalysis } from './types.js';

/** A term's frequency in the three fields of one note, packed: summary | tags << 8 | body << 16 (each ≤ 255). */
type PackedTf = number;
const TF_MAX = 255;

function pack(s: number, t: number, b: number): PackedTf {
  return Math.min(s, TF_MAX) | (Math.min(t, TF_MAX) << 8) | (Math.min(b, TF_MAX) << 16);
}

/**
 * One query term's BM25F share of a note's score: the note's packed tf weighted by its per-field
 * length norms (`nS`, `nT`, `nB`), saturated by k1, times the term's idf.
 */
function bm25Share(tf: PackedTf, idf: number, nS: number, nT: number, nB: number, k1: number): number {
  const x = (tf & 0xff) * nS + ((tf >>> 8) & 0xff) * nT + (tf >>> 16) * nB;
  return (idf * x) / (k1 + x);
}

interface Entry {
  doc: SearchDocument;
  key: string;
  /** The note's distinct terms and their frequencies (as indexed); null: in `segment`, read on first use. */
  analysis: DocumentAnalysis | null;
  /** term → tf, built on first lookup: most notes are never looked up, and 10,000 maps cost a lot to build. */
  tfByTerm: Map<string, PackedTf> | null;
  /** The persisted segment the note was adopted from and its note number there (null / -1: upserted). */
  segment: IndexSegment | null;
  segmentDoc: number;
}

function analysisOfEntry(e: Entry): DocumentAnalysis {
  return (e.analysis ??= e.segment!.analysis(e.segmentDoc));
}

/** The entry's term → tf map (built on first use). */
function termsOf(e: Entry): Map<string, PackedTf> {
  if (!e.tfByTerm) {
    const { terms, tfs } = analysisOfEntry(e);
    e.tfByTerm = new Map();
    for (let i = 0; i < terms.length; i++) e.tfByTerm.set(terms[i]!, tfs[i]!);
  }
  return e.tfByTerm;
}

interface Posting {
  docs: number[];
  tfs: PackedTf[];
}

/** A persisted segment adopted by the index: its note number d is slot `base + d`. */
interface AdoptedSegment {
  segment: IndexSegment;
  base: number;
  /** Its CJK bigrams are in bigramsByChar (done on the first one-character CJK query). */
  bigramsTracked: boolean;
}

export type { WeightedQuery } from './feedback.js';

/** A ranked hit and the slot of its note. */
interface RankedHit {
  d: number;
  hit: SearchHit;
}

const SCOPE_CODE = { project: 1, user: 2 } as const;
const SELECTION_MASK = { project: 1, user: 2, both: 3 } as const;
/** remember's related check reads at most this many of the new note's terms (the rarest first). */
const RELATED_MAX_TERMS = 24;
/** Pseudo-relevance feedback runs only when the first pass finds this many times `docs` notes. */
const FEEDBACK_POOL_FACTOR = 2;
/**
 * Queries with more distinct terms than this are not expanded: a long message already says much
 * more than a few feedback words would add, and its first pass would cost the most.
 */
const FEEDBACK_MAX_QUERY_TERMS = 32;
/** Recall reorders at most this many of the notes that qualify (it attaches perTurn = 3 of them). */
const FEEDBACK_RERANK_POOL = 50;
/** A one-character CJK query term is widened to at most this many indexed bigrams containing it. */
const CJK_EXPANSION_MAX = 64;
/** Lexical hits fused with the semantic matches (a semantic match may lift one from past the hits shown). */
const FUSION_LEXICAL_POOL = 100;
/** Notes whose term positions proximity keeps (a few MB at most). */
const PROXIMITY_CACHE_NOTES = 2000;

function docKey(scope: Scope, id: string): string {
  return `${scope}\u0000${id}`;
}

/**
 * An incremental BM25F index over project and user notes. Every method is synchronous and pure
 * over the documents given; `upsert` / `remove` keep it current (the store calls them on every
 * write and watcher event). See docs/search.md for the scoring.
 */
export class SearchIndex {
  private entries: (Entry | undefined)[] = [];
  private free: number[] = [];
  private byKey = new Map<string, number>();
  /** noteIdKey(id) → [project slot, user slot], for resolving [[id]] links. */
  private byIdKey = new Map<string, [number, number]>();
  private postings = new Map<string, Posting>();
  /** The terms of `postings`, sorted (find-as-you-type's prefix lookups). */
  private ownTerms = new SortedTerms((term) => this.postings.has(term));
  /** CJK character → the indexed bigrams containing it (lets a one-character query find longer words). */
  private bigramsByChar = new Map<string, Set<string>>();
  /** term → slots of the notes with the term in their summary or tags (recall's candidates). */
  private headPostings = new Map<string, number[]>();
  /**
   * Persisted segments (adoptSegment): a term's postings stay in them until the term is first
   * looked up, then they move into `postings` / `headPostings` (and the term into `merged`), which
   * from then on are complete for it. A term never merged has no posting of a removed note (a
   * removal merges every term of the note first).
   */
  private segments: AdoptedSegment[] = [];
  private merged = new Set<string>();
  /** Terms whose summary/tag postings (only) are complete in `headPostings` (recall's candidates). */
  private headsMerged = new Set<string>();
  /** Document frequencies of terms not merged yet, summed over the segments (fixed until the next adoption). */
  private segmentDf = new Map<string, number>();
  private scopeCode = new Uint8Array(64);
  private lenS: number[] = [];
  private lenT: number[] = [];
  private lenB: number[] = [];
  private sumS = 0;
  private sumT = 0;
  private sumB = 0;
  private count = 0;
  /** Per-note field factors weight / (1 − b + b·len/avgLen), recomputed lazily after a change. */
  private normS = new Float64Array(64);
  private normT = new Float64Array(64);
  private normB = new Float64Array(64);
  private normsDirty = true;
  /** Score accumulator per slot and "matched in summary or tags" flags, reset after each query. */
  private acc = new Float64Array(64);
  private stHit = new Uint8Array(64);
  /** Scratch arrays for one query: the slots it touched, its candidates, and a copy of their scores for selectTop. */
  private touched = new Int32Array(64);
  private candSlots = new Int32Array(64);
  private candScores = new Float64Array(64);
  private scoreScratch = new Float64Array(64);
  private ranking: RankingConfig = DEFAULT_RANKING;
  /** slot → the note's summary and body term positions (proximity), least recently used first. */
  private positions = new Map<number, FieldPositions[]>();

  constructor(docs?: Iterable<SearchDocument>) {
    if (docs) for (const d of docs) this.upsert(d);
  }

  /** Change how queries are ranked (benchmarks measure each method this way); nothing is re-indexed. */
  configureRanking(change: Partial<RankingConfig>): void {
    this.ranking = { ...this.ranking, ...change };
    this.normsDirty = true;
  }

  get size(): number {
    return this.count;
  }

  has(scope: Scope, id: string): boolean {
    return this.byKey.has(docKey(scope, id));
  }

  get(scope: Scope, id: string): SearchDocument | undefined {
    const slot = this.byKey.get(docKey(scope, id));
    return slot === undefined ? undefined : this.entries[slot]?.doc;
  }

  /** The analysis an indexed note was indexed with (what the index cache persists). */
  analysisOf(scope: Scope, id: string): DocumentAnalysis | undefined {
    return this.healed(() => {
      const slot = this.byKey.get(docKey(scope, id));
      const e = slot === undefined ? undefined : this.entries[slot];
      if (!e) return undefined;
      return analysisOfEntry(e);
    });
  }

  *documents(): IterableIterator<SearchDocument> {
    for (const e of this.entries) if (e) yield e.doc;
  }

  clear(): void {
    this.entries = [];
    this.free = [];
    this.byKey.clear();
    this.byIdKey.clear();
    this.postings.clear();
    this.ownTerms.clear();
    this.bigramsByChar.clear();
    this.headPostings.clear();
    this.segments = [];
    this.merged.clear();
    this.headsMerged.clear();
    this.segmentDf.clear();
    this.positions.clear();
    this.lenS = [];
    this.lenT = [];
    this.lenB = [];
    this.sumS = this.sumT = this.sumB = this.count = 0;
    this.normsDirty = true;
    // A query cut short (a damaged segment, then a rebuild) leaves its marks in the scratch arrays.
    this.acc.fill(0);
    this.stHit.fill(0);
  }

  /**
   * Add the note `(doc.scope, doc.id)`, or replace it when it is already indexed. `analysis`, when
   * given, must be `analyseDocument(doc)` (a persisted copy, see ../index-cache.ts): it skips the
   * text analysis, which is most of the cost of indexing a note.
   */
  upsert(doc: SearchDocument, analysis: DocumentAnalysis = analyseDocument(doc)): void {
    return this.healed(() => {
      const key = docKey(doc.scope, doc.id);
      if (this.byKey.has(key)) this.remove(doc.scope, doc.id);

      const slot = this.free.pop() ?? this.entries.length;
      this.ensureCapacity(slot + 1);
      for (let i = 0; i < analysis.terms.length; i++) {
        const term = analysis.terms[i]!;
        const tf = analysis.tfs[i]!;
        const p = this.posting(term) ?? this.newPosting(term);
        p.docs.push(slot);
        p.tfs.push(tf);
        if ((tf & 0xffff) !== 0) {
          const head = this.head(term);
          if (head) head.push(slot);
          else this.headPostings.set(term, [slot]);
        }
      }
      // Only the fields search uses (a StoredNote's spread would also compute its derived links).
      // The body is read from the document when needed (recall's block): with a precomputed
      // analysis, indexing never reads it (a note from the index cache loads its body lazily).
      const own: SearchDocument = {
        id: doc.id,
        scope: doc.scope,
        summary: doc.summary,
        tags: [...doc.tags],
        type: doc.type,
        get body() {
          return doc.body;
        },
        updatedAt: doc.updatedAt,
      };
      this.place(slot, own, key, analysis, analysis.lengths, null, -1);
    });
  }

  /**
   * Adds a persisted segment's notes (../index-cache.ts) without reading their postings: those are
   * read per term on first lookup. `docs[d]` is segment note d as it was analysed; notes that
   * changed since must be removed (or upserted) right after. Gives the same answers as upserting
   * every note with its analysis (test/memory/index-cache.test.ts).
   */
  adoptSegment(segment: IndexSegment, docs: readonly Readonly<SearchDocument>[]): void {
    if (docs.length !== segment.docCount) throw new Error('a segment needs one document per note');
    // Each key made once (a new string is hashed on its first lookup, then never again).
    const keys = docs.map((d) => docKey(d.scope, d.id));
    keys.forEach((key, d) => {
      if (this.byKey.has(key)) throw new Error(`${docs[d]!.scope}:${docs[d]!.id} is already indexed`);
    });
    const base = this.entries.length;
    this.ensureCapacity(base + docs.length);
    docs.forEach((doc, d) => {
      // Kept as given (documents handed to a segment are never changed: the store's notes). Only
      // the lengths are read now; the terms when the note is explained, reranked or removed.
      this.place(base + d, doc, keys[d]!, null, segment.lengths(d), segment, d);
    });
    const adopted: AdoptedSegment = { segment, base, bigramsTracked: false };
    try {
      // Terms whose postings are complete (merged, or held for notes indexed before any segment:
      // after a rebuild) stay complete: they take this segment's postings now.
      for (const term of new Set([...this.merged, ...this.postings.keys()])) {
        this.merged.add(term);
        this.mergePostings(adopted, term, this.postings.get(term));
        this.mergeHeads(adopted, term);
      }
      for (const term of new Set([...this.headsMerged, ...this.headPostings.keys()]))
        if (!this.merged.has(term)) {
          this.headsMerged.add(term);
          this.mergeHeads(adopted, term);
        }
    } catch (err) {
      if (!(err instanceof SegmentDamagedError)) throw err;
      this.rebuildWithoutSegments(); // the notes just placed are among those analysed again
      return;
    }
    this.segments.push(adopted);
    this.segmentDf.clear();
  }

  /**
   * Runs `op` and, when a persisted segment's list turns out damaged on the way (read on demand,
   * index-segment.ts), analyses every note again without segments and runs it once more: a
   * damaged cache costs time, never a wrong or missing answer. Whatever `op` changed before the
   * damage is undone by the rebuild (built from the notes held), so it runs again from the start.
   */
  private healed<T>(op: () => T): T {
    try {
      return op();
    } catch (err) {
      if (!(err instanceof SegmentDamagedError) || this.segments.length === 0) throw err;
      this.rebuildWithoutSegments();
      return op();
    }
  }

  /** Every note held, indexed again from its own text; the persisted segments are dropped. */
  private rebuildWithoutSegments(): void {
    const docs = [...this.documents()];
    this.clear();
    for (const doc of docs) this.upsert(doc);
  }

  /** Puts a note into a free slot with its analysis (or the segment it is read from) and field lengths. */
  private place(
    slot: number,
    doc: SearchDocument,
    key: string,
    analysis: DocumentAnalysis | null,
    [lenS, lenT, lenB]: readonly [number, number, number],
    segment: IndexSegment | null,
    segmentDoc: number,
  ): void {
    this.entries[slot] = { doc, key, analysis, tfByTerm: null, segment, segmentDoc };
    this.positions.delete(slot);
    this.byKey.set(key, slot);
    const idKey = noteIdKey(doc.id);
    const pair = this.byIdKey.get(idKey) ?? [-1, -1];
    pair[doc.scope === 'project' ? 0 : 1] = slot;
    this.byIdKey.set(idKey, pair);
    this.scopeCode[slot] = SCOPE_CODE[doc.scope];
    this.lenS[slot] = lenS;
    this.lenT[slot] = lenT;
    this.lenB[slot] = lenB;
    this.sumS += lenS;
    this.sumT += lenT;
    this.sumB += lenB;
    this.count++;
    this.normsDirty = true;
  }

  /** The term's postings, merged from the segments on first lookup. */
  private posting(term: string): Posting | undefined {
    const p = this.postings.get(term);
    if (p || this.segments.length === 0 || this.merged.has(term)) return p;
    this.head(term); // heads are complete whenever postings are
    this.merged.add(term);
    let out: Posting | undefined;
    for (const s of this.segments) out = this.mergePostings(s, term, out);
    return out;
  }

  /** Appends segment s's postings of term to `into` (created and registered when missing). */
  private mergePostings(s: AdoptedSegment, term: string, into: Posting | undefined): Posting | undefined {
    const t = s.segment.find(term);
    if (t < 0) return into;
    const p = into ?? this.newPosting(term);
    const docs = p.docs;
    const tfs = p.tfs;
    s.segment.postings(t, (d, tf) => {
      docs.push(s.base + d);
      tfs.push(tf);
    });
    return p;
  }

  /** An empty posting list for a term new to the index. */
  private newPosting(term: string): Posting {
    const p: Posting = { docs: [], tfs: [] };
    this.postings.set(term, p);
    this.ownTerms.add(term);
    this.trackBigram(term, true);
    return p;
  }

  /** Slots of the notes with the term in their summary or tags (merged without the other postings). */
  private head(term: string): number[] | undefined {
    if (this.segments.length > 0 && !this.merged.has(term) && !this.headsMerged.has(term)) {
      this.headsMerged.add(term);
      for (const s of this.segments) this.mergeHeads(s, term);
    }
    return this.headPostings.get(term);
  }

  private mergeHeads(s: AdoptedSegment, term: string): void {
    const t = s.segment.find(term);
    const heads = t < 0 ? null : s.segment.heads(t);
    if (!heads || heads.length === 0) return;
    let head = this.headPostings.get(term);
    if (!head) this.headPostings.set(term, (head = []));
    for (const d of heads) head.push(s.base + d);
  }

  /** In how many notes the term occurs, without merging its postings. */
  private df(term: string): number {
    const p = this.postings.get(term);
    if (p || this.segments.length === 0 || this.merged.has(term)) return p?.docs.length ?? 0;
    let n = this.segmentDf.get(term);
    if (n === undefined) {
      n = 0;
      for (const s of this.segments) {
        const t = s.segment.find(term);
        if (t >= 0) n += s.segment.df(t);
      }
      this.segmentDf.set(term, n);
    }
    return n;
  }

  /** Remove the note; returns whether it was indexed. */
  remove(scope: Scope, id: string): boolean {
    return this.healed(() => {
      const key = docKey(scope, id);
      const slot = this.byKey.get(key);
      if (slot === undefined) return false;
      const entry = this.entries[slot]!;
      const { terms, tfs } = analysisOfEntry(entry);
      for (let k = 0; k < terms.length; k++) {
        const term = terms[k]!;
        const tf = tfs[k]!;
        const p = this.posting(term)!;
        if ((tf & 0xffff) !== 0) {
          const head = this.headPostings.get(term)!;
          const h = head.indexOf(slot);
          head[h] = head[head.length - 1]!;
          head.pop();
          if (head.length === 0) this.headPostings.delete(term);
        }
        const i = p.docs.indexOf(slot);
        const last = p.docs.length - 1;
        p.docs[i] = p.docs[last]!;
        p.tfs[i] = p.tfs[last]!;
        p.docs.pop();
        p.tfs.pop();
        if (p.docs.length === 0) {
          this.postings.delete(term);
          this.ownTerms.removed();
          this.trackBigram(term, false);
        }
      }
      this.byKey.delete(key);
      const idKey = noteIdKey(id);
      const pair = this.byIdKey.get(idKey);
      if (pair) {
        pair[scope === 'project' ? 0 : 1] = -1;
        if (pair[0] < 0 && pair[1] < 0) this.byIdKey.delete(idKey);
      }
      this.sumS -= this.lenS[slot]!;
      this.sumT -= this.lenT[slot]!;
      this.sumB -= this.lenB[slot]!;
      this.entries[slot] = undefined;
      this.positions.delete(slot);
      this.scopeCode[slot] = 0;
      this.free.push(slot);
      this.count--;
      this.normsDirty = true;
      return true;
    });
  }

  /** The note a `[[id]]` link names: the project scope first, then the user scope (ids compared ignoring case). */
  resolveLink(id: string): SearchDocument | undefined {
    const pair = this.byIdKey.get(noteIdKey(id));
    if (!pair) return undefined;
    const slot = pair[0] >= 0 ? pair[0] : pair[1];
    return slot >= 0 ? this.entries[slot]?.doc : undefined;
  }

  /** The indexed terms, for find-as-you-type's prefix and typo matching. */
  private readonly vocabulary: Vocabulary = {
    terms: () => this.allTerms(),
    withPrefix: (prefix) => this.termsWithPrefix(prefix),
    df: (term) => this.df(term),
  };

  /** Every indexed term once: the merged ones, then the segments' others (without reading their postings). */
  private *allTerms(): Generator<string> {
    yield* this.ownTerms.all();
    const seen = new Set<string>();
    for (const s of this.segments)
      for (const term of s.segment.terms)
        if (!this.merged.has(term) && !seen.has(term)) {
          seen.add(term);
          yield term;
        }
  }

  /**
   * The indexed terms starting with `prefix` (a term in several segments may come more than once):
   * binary searches in the sorted own terms and in each segment's sorted terms.
   */
  private termsWithPrefix(prefix: string): string[] {
    const out = this.ownTerms.withPrefix(prefix);
    for (const s of this.segments) {
      const terms = s.segment.terms;
      for (let i = lowerBound(terms, prefix); i < terms.length && terms[i]!.startsWith(prefix); i++)
        if (!this.merged.has(terms[i]!)) out.push(terms[i]!);
    }
    return out;
  }

  /**
   * Ranked search over summary, tags and body; every hit says why it matched. The word being typed
   * also matches as a prefix, and a longer word with one typo still finds (as-you-type.ts).
   */
  search(query: string, options: SearchOptions = {}): SearchHit[] {
    return this.healed(() => {
      const limit = Math.max(0, Math.floor(options.limit ?? 20));
      const exact = this.widenCjk(this.queryOf(query));
      const q = options.asYouType === false ? exact : expandAsTyped(exact, query, this.vocabulary);
      const label = options.projectLabel;
      const scope = options.scope ?? 'both';
      const skip = label !== undefined ? this.hiddenIn(label) : undefined;
      const semantic = options.semantic;
      const hits = this.rank(q, {
        limit: semantic ? Math.max(limit, FUSION_LEXICAL_POOL) : limit,
        scope,
        usage: options.usage,
        feedback: true,
        proximityTerms: exact.terms,
        ...(skip ? { skip } : {}),
      });
      if (!semantic || limit === 0) return hits;
      const fused = fuseScores(
        hits,
        semantic,
        (s, id) => {
          const doc = this.get(s, id);
          if (!doc || (scope !== 'both' && s !== scope) || skip?.(s, id)) return undefined;
          return unmatchedHit(doc);
        },
        options.semanticWeight,
      );
      return fused.slice(0, limit);
    });
  }

  /** `skip` for notes tagged only for other projects than `label` (project-tag.ts). */
  hiddenIn(label: string): (scope: Scope, id: string, doc?: SearchDocument) => boolean {
    // Only user notes can be hidden: project notes are not looked up at all (a lookup per candidate
    // was most of a search's time at 10,000 notes).
    return (scope, id, doc) => {
      if (scope !== 'user') return false;
      const d = doc ?? this.get(scope, id);
      return d !== undefined && hiddenInProject(d, label);
    };
  }

  /**
   * Search only (recall stays exact): a lone CJK character in the query ("猫") also matches the
   * indexed bigrams that contain it ("猫咪", "小猫"), since CJK words are indexed as bigrams.
   */
  private widenCjk(q: WeightedQuery): WeightedQuery {
    let out: WeightedQuery | null = null;
    for (const term of q.terms) {
      const chars = cjkChars(term);
      if (!chars || chars.length !== 1) continue;
      this.trackSegmentBigrams();
      const bigrams = this.bigramsByChar.get(term);
      if (!bigrams) continue;
      out ??= { terms: [...q.terms], weights: [...q.weights] };
      let n = 0;
      // Sorted: which bigrams are taken must not depend on the order notes were indexed in.
      for (const b of [...bigrams].sort()) {
        if (n++ >= CJK_EXPANSION_MAX) break;
        if (!out.terms.includes(b)) {
          out.terms.push(b);
          out.weights.push(1);
        }
      }
    }
    return out ?? q;
  }

  /** Puts the segments' not yet merged CJK bigrams into bigramsByChar (merged ones are there). */
  private trackSegmentBigrams(): void {
    for (const s of this.segments) {
      if (s.bigramsTracked) continue;
      s.bigramsTracked = true;
      for (const term of s.segment.terms) if (!this.merged.has(term)) this.trackBigram(term, true);
    }
  }

  private trackBigram(term: string, added: boolean): void {
    const chars = cjkChars(term);
    if (!chars || chars.length !== 2) return;
    for (const c of new Set(chars)) {
      let set = this.bigramsByChar.get(c);
      if (added) {
        if (!set) this.bigramsByChar.set(c, (set = new Set()));
        set.add(term);
      } else if (set) {
        set.delete(term);
        if (set.size === 0) this.bigramsByChar.delete(c);
      }
    }
  }

  /**
   * The notes most related to a note being written (remember), and a probable duplicate: the best
   * related note whose `similarity` reaches DUPLICATE_THRESHOLD.
   */
  related(note: NoteLike, options: RelatedOptions = {}): RelatedResult {
    return this.healed(() => {
      const limit = Math.max(0, Math.floor(options.limit ?? 5));
      const q = this.noteQuery(note);
      const ex = options.exclude;
      const hits = this.rank(q, {
        limit,
        scope: options.scope ?? 'both',
        usage: undefined,
        ...(ex ? { skip: (scope: Scope, id: string) => scope === ex.scope && id === ex.id } : {}),
      });
      let duplicateOf: RelatedResult['duplicateOf'] = null;
      const vec = this.vectorOf(termCounts(note));
      for (const hit of hits.slice(0, 3)) {
        const sim = cosine(
          vec,
          this.vectorOf(termsOf(this.entries[this.byKey.get(docKey(hit.scope, hit.id))!]!)),
        );
        if (sim >= DUPLICATE_THRESHOLD && (!duplicateOf || sim > duplicateOf.similarity)) {
          duplicateOf = { id: hit.id, scope: hit.scope, summary: hit.summary, similarity: sim };
        }
      }
      if (duplicateOf) {
        const d = duplicateOf;
        const i = hits.findIndex((h) => h.id === d.id && h.scope === d.scope);
        if (i > 0) hits.unshift(...hits.splice(i, 1));
      }
      return { related: hits, duplicateOf };
    });
  }

  /**
   * How alike a note and an indexed note are, 0..1: the cosine of their idf-weighted, field-weighted
   * term vectors. 1 for the same text; what the duplicate threshold compares. 0 when `id` is unknown.
   */
  similarity(note: NoteLike, scope: Scope, id: string): number {
    return this.healed(() => {
      const slot = this.byKey.get(docKey(scope, id));
      if (slot === undefined) return 0;
      return cosine(this.vectorOf(termCounts(note)), this.vectorOf(termsOf(this.entries[slot]!)));
    });
  }

  /** Per-message recall (see ./recall.ts). Never throws. */
  recall(message: string, options: RecallOptions = {}): RecallResult {
    return recall(this, message, options);
  }

  /** The distinct terms of a query or message as a uniform query (question words dropped when so configured). */
  queryOf(text: string): WeightedQuery {
    return uniformQuery(this.ranking.questionWords ? analyzeQuery(text) : analyze(text));
  }

  /**
   * The ranking loop shared by search, related and recall: BM25F over the postings of the query's
   * terms, the best `limit` kept in a heap, then explained.
   */
  rank(q: WeightedQuery, o: RankOptions): SearchHit[] {
    return this.healed(() => {
      if (o.limit <= 0 || q.terms.length === 0 || this.count === 0) return [];
      const prox = this.proximityQuery(o);
      if (!prox) return this.rankLexical(q, o).map((x) => x.hit);
      // The best `pool` notes are re-ranked by how close the typed terms stand in their text.
      const pool = this.rankLexical(q, { ...o, limit: Math.max(o.limit, prox.config.pool) });
      return pool
        .map((x, i) => ({ hit: this.withProximity(x, prox), i }))
        .sort((a, b) => b.hit.score - a.hit.score || a.i - b.i)
        .slice(0, o.limit)
        .map((x) => x.hit);
    });
  }

  /** BM25F (with feedback when asked) without proximity: the ranking proximity re-ranks (with each hit's slot). */
  private rankLexical(q: WeightedQuery, o: RankOptions): RankedHit[] {
    const fb = o.feedback && q.terms.length <= FEEDBACK_MAX_QUERY_TERMS ? this.ranking.feedback : null;
    const explainAll = (slots: number[], query: WeightedQuery): RankedHit[] =>
      slots.map((d) => ({ d, hit: this.explain(d, query, o.usage) }));
    if (!fb) return explainAll(this.select(q, o), q);
    // Recall: which notes qualify is decided by the query as written; feedback only reorders the
    // best of them (and is not worth a pass when at most one qualifies — most messages).
    const filtered = o.requireSummaryOrTags === true || o.minTextScore !== undefined;
    const qualified = filtered
      ? this.select(q, { ...o, limit: Math.max(o.limit, FEEDBACK_RERANK_POOL) })
      : null;
    if (qualified && qualified.length <= 1) return explainAll(qualified, q);
    // Recall learns from the best qualified notes themselves (no second pass over every posting),
    // each in proportion to its score: weighting them by score⁴ as search does made recall attach
    // an evidence note less often on both public sets (docs/search.md).
    const expanded = qualified
      ? this.feedbackQuery(q, o.scope, { ...fb, scorePower: 1 }, qualified.slice(0, fb.docs))
      : this.feedbackQuery(q, o.scope, fb);
    if (!expanded) return explainAll(qualified ? qualified.slice(0, o.limit) : this.select(q, o), q);
    if (!qualified) return explainAll(this.select(expanded, o), expanded);
    return explainAll(qualified, expanded)
      .sort((a, b) => b.hit.score - a.hit.score || this.tieBreak(a.d, b.d))
      .slice(0, o.limit);
  }

  /**
   * A note's summary and body term positions, for proximity: analysed on first use and kept for
   * the PROXIMITY_CACHE_NOTES notes used most recently (search as you type asks for the same best
   * notes keystroke after keystroke; the index itself keeps no positions).
   */
  private positionsOf(slot: number): readonly FieldPositions[] {
    let pos = this.positions.get(slot);
    if (pos) {
      this.positions.delete(slot); // re-inserted: most recently used last
    } else {
      const doc = this.entries[slot]!.doc;
      pos = [positionsOf(analyze(doc.summary)), positionsOf(analyze(doc.body))];
      if (this.positions.size >= PROXIMITY_CACHE_NOTES)
        this.positions.delete(this.positions.keys().next().value!);
    }
    this.positions.set(slot, pos);
    return pos;
  }

  /** The typed terms proximity compares, with their idf; null when proximity does not apply. */
  private proximityQuery(o: RankOptions): { query: ProximityQuery; config: ProximityConfig } | null {
    const config = this.ranking.proximity;
    const typed = o.proximityTerms;
    if (!config || !typed || typed.length < 2 || typed.length > config.maxQueryTerms) return null;
    const terms = typed.filter((t) => this.df(t) > 0);
    if (terms.length < 2) return null;
    return { query: { terms, idfs: terms.map((t) => bm25Idf(this.df(t), this.count)) }, config };
  }

  /** The hit with its proximity part added (the text score grows by it; usage is not re-nudged). */
  private withProximity(
    { d: slot, hit }: RankedHit,
    prox: { query: ProximityQuery; config: ProximityConfig },
  ): SearchHit {
    // Most hits hold one of the query's terms only: no pair to score, no text to read.
    const terms = termsOf(this.entries[slot]!);
    let present = 0;
    for (const t of prox.query.terms) if (terms.has(t) && ++present === 2) break;
    if (present < 2) return hit;
    const p = proximityScore(this.positionsOf(slot), prox.query, prox.config);
    if (p === 0) return hit;
    const parts = { ...hit.why.parts, proximity: p };
    return { ...hit, score: sumParts(parts), why: { ...hit.why, parts } };
  }

  /**
   * The query expanded by RM3 feedback from `best` (recall's best qualified notes) or else from
   * the best notes of a first pass — null when that pass finds fewer than twice `docs` notes: then
   * the "best" notes are simply all of them (a new store, a rare word), and the query stays as typed.
   */
  private feedbackQuery(
    q: WeightedQuery,
    scope: ScopeSelection,
    fb: FeedbackConfig,
    best?: number[],
  ): WeightedQuery | null {
    let top = best;
    if (!top) {
      const pool = fb.docs * FEEDBACK_POOL_FACTOR;
      const first = this.select(q, { limit: pool, scope, usage: undefined });
      if (first.length < pool) return null;
      top = first.slice(0, fb.docs);
    }
    const docs = top.map((d) => this.feedbackDoc(d, q));
    const maxDf = fb.maxDocShare * this.count;
    const typed = new Set(q.terms);
    return expandQuery(q, docs, fb, (t) => typed.has(t) || this.df(t) <= maxDf);
  }

  /** A first-pass note for feedback: its score and field-weighted term frequencies. */
  private feedbackDoc(slot: number, q: WeightedQuery): FeedbackDoc {
    const w = this.ranking.fieldWeights;
    const { terms, tfs } = analysisOfEntry(this.entries[slot]!);
    return {
      score: this.explain(slot, q, undefined).score,
      terms: terms.map((t, i) => {
        const tf = tfs[i]!;
        return [t, w.summary * (tf & 0xff) + w.tags * ((tf >>> 8) & 0xff) + w.body * (tf >>> 16)] as const;
      }),
    };
  }

  /** The best `limit` notes for the query, best first (slots). */
  private select(q: WeightedQuery, o: RankOptions): number[] {
    this.refreshNorms();
    const mask = SELECTION_MASK[o.scope];
    const acc = this.acc;
    const stHit = this.stHit;
    const n = o.requireSummaryOrTags ? this.accumulateHeadMatches(q, mask) : this.accumulateAll(q, mask);
    const touched = this.touched;

    // Filter, add the usage nudge, and reset the accumulators for the next query.
    const slots = this.candSlots;
    const scores = this.candScores;
    const minText = o.minTextScore ?? 0;
    let m = 0;
    for (let i = 0; i < n; i++) {
      const d = touched[i]!;
      const text = acc[d]!;
      const hit = stHit[d] === 1;
      acc[d] = 0;
      stHit[d] = 0;
      if (o.requireSummaryOrTags && !hit) continue;
      if (text < minText || !(text > 0)) continue;
      if (o.skip || o.usage) {
        const doc = this.entries[d]!.doc;
        if (o.skip?.(doc.scope, doc.id, doc)) continue;
        slots[m] = d;
        scores[m++] = text + usageBonus(text, usageCount(o.usage, doc.scope, doc.id));
      } else {
        slots[m] = d;
        scores[m++] = text;
      }
    }
    return selectTop(slots, scores, m, o.limit, this.tieBreak, this.scoreScratch);
  }

  /** BM25F over every posting of every query term; returns how many slots it touched (in `touched`; acc / stHit set). */
  private accumulateAll(q: WeightedQuery, mask: number): number {
    const { acc, stHit, normS, normT, normB, scopeCode, touched } = this;
    const k1 = this.ranking.k1;
    let n = 0;
    for (let qi = 0; qi < q.terms.length; qi++) {
      const p = this.posting(q.terms[qi]!);
      if (!p) continue;
      const idf = bm25Idf(p.docs.length, this.count) * q.weights[qi]!;
      const docs = p.docs;
      const tfs = p.tfs;
      for (let i = 0; i < docs.length; i++) {
        const d = docs[i]!;
        if ((scopeCode[d]! & mask) === 0) continue;
        const tf = tfs[i]!;
        if (acc[d] === 0) touched[n++] = d;
        acc[d] = acc[d]! + bm25Share(tf, idf, normS[d]!, normT[d]!, normB[d]!, k1);
        if ((tf & 0xffff) !== 0) stHit[d] = 1;
      }
    }
    return n;
  }

  /**
   * Recall's path: only notes with a query term in their summary or tags can be attached, so the
   * candidates come from the (short) summary/tag postings. They are then scored over all fields,
   * whichever way is cheaper: from each candidate's own term table (few candidates), or by one
   * pass over the query terms' postings that skips non-candidates (many candidates).
   */
  private accumulateHeadMatches(q: WeightedQuery, mask: number): number {
    const qTerms: string[] = [];
    const qIdf: number[] = [];
    let postingsTotal = 0;
    for (let qi = 0; qi < q.terms.length; qi++) {
      const df = this.df(q.terms[qi]!);
      if (df === 0) continue;
      qTerms.push(q.terms[qi]!);
      qIdf.push(bm25Idf(df, this.count) * q.weights[qi]!);
      postingsTotal += df;
    }
    const { stHit, scopeCode, touched } = this;
    let n = 0;
    for (const term of qTerms) {
      const head = this.head(term);
      if (!head) continue;
      for (const d of head) {
        if (stHit[d] === 1 || (scopeCode[d]! & mask) === 0) continue;
        stHit[d] = 1;
        touched[n++] = d;
      }
    }
    if (n === 0) return 0;
    const { acc, normS, normT, normB } = this;
    const k1 = this.ranking.k1;

    if (n * qTerms.length <= postingsTotal) {
      // A note still in its segment is looked up there by term number (no term table made per
      // candidate: at 10,000 notes a common word makes thousands of them). The same tfs, summed in
      // the same order, as the table gives. Only with distinct query terms (one mark per term).
      const marks = new Set(qTerms).size === qTerms.length ? new Map<IndexSegment, Int32Array>() : null;
      const qTf = new Int32Array(qTerms.length);
      for (let i = 0; i < n; i++) {
        const d = touched[i]!;
        const e = this.entries[d]!;
        let sum = 0;
        if (marks && e.tfByTerm === null && e.segment !== null) {
          let m = marks.get(e.segment);
          if (!m) marks.set(e.segment, (m = this.termMarks(e.segment, qTerms)));
          qTf.fill(-1);
          e.segment.lookupTfs(e.segmentDoc, m, qTf);
          for (let i = 0; i < qTerms.length; i++) {
            const tf = qTf[i]!;
            if (tf >= 0) sum += bm25Share(tf, qIdf[i]!, normS[d]!, normT[d]!, normB[d]!, k1);
          }
        } else {
          const terms = termsOf(e);
          for (let i = 0; i < qTerms.length; i++) {
            const tf = terms.get(qTerms[i]!);
            if (tf !== undefined) sum += bm25Share(tf, qIdf[i]!, normS[d]!, normT[d]!, normB[d]!, k1);
          }
        }
        acc[d] = sum;
      }
      return n;
    }

    for (let i = 0; i < qTerms.length; i++) {
      const p = this.posting(qTerms[i]!)!;
      const idf = qIdf[i]!;
      const docs = p.docs;
      const tfs = p.tfs;
      for (let j = 0; j < docs.length; j++) {
        const d = docs[j]!;
        if (stHit[d] !== 1) continue;
        acc[d] = acc[d]! + bm25Share(tfs[j]!, idf, normS[d]!, normT[d]!, normB[d]!, k1);
      }
    }
    return n;
  }

  /** Per term number of `segment`: 1 + the term's place in `terms` (0: not one of them). */
  private termMarks(segment: IndexSegment, terms: readonly string[]): Int32Array {
    const marks = new Int32Array(segment.terms.length);
    terms.forEach((term, k) => {
      const t = segment.find(term);
      if (t >= 0) marks[t] = k + 1;
    });
    return marks;
  }

  /** Equal scores: the more recently updated note first, then project before user, then by id. */
  private tieBreak = (a: number, b: number): number => {
    const ea = this.entries[a]!;
    const eb = this.entries[b]!;
    return eb.doc.updatedAt - ea.doc.updatedAt || (ea.key < eb.key ? -1 : ea.key > eb.key ? 1 : 0);
  };

  /** Recomputes one note's score per field and term: the explanation, whose parts sum to the score. */
  private explain(slot: number, q: WeightedQuery, usage: UsageCounts | undefined): SearchHit {
    const e = this.entries[slot]!;
    const nS = this.normS[slot]!;
    const nT = this.normT[slot]!;
    const nB = this.normB[slot]!;
    const matched = { summary: [] as string[], tags: [] as string[], body: [] as string[] };
    let pS = 0;
    let pT = 0;
    let pB = 0;
    for (let qi = 0; qi < q.terms.length; qi++) {
      const term = q.terms[qi]!;
      const tf = termsOf(e).get(term);
      if (tf === undefined) continue;
      const idf = bm25Idf(this.df(term), this.count) * q.weights[qi]!;
      const xs = (tf & 0xff) * nS;
      const xt = ((tf >>> 8) & 0xff) * nT;
      const xb = (tf >>> 16) * nB;
      const x = xs + xt + xb;
      const s = (idf * x) / (this.ranking.k1 + x);
      if (xs > 0) {
        pS += (s * xs) / x;
        matched.summary.push(term);
      }
      if (xt > 0) {
        pT += (s * xt) / x;
        matched.tags.push(term);
      }
      if (xb > 0) {
        pB += (s * xb) / x;
        matched.body.push(term);
      }
    }
    const text = pS + pT + pB;
    const pU = usageBonus(text, usageCount(usage, e.doc.scope, e.doc.id));
    return {
      id: e.doc.id,
      scope: e.doc.scope,
      summary: e.doc.summary,
      score: pS + pT + pB + pU,
      why: { matched, parts: { summary: pS, tags: pT, body: pB, usage: pU } },
    };
  }

  /** A note being written as a query: its distinct terms, rarest first, summary and tag terms weighing double. */
  private noteQuery(note: NoteLike): WeightedQuery {
    const counts = termCounts(note);
    const scored: { term: string; w: number; rank: number }[] = [];
    for (const [term, tf] of counts) {
      const inHead = (tf & 0xffff) !== 0;
      const df = this.df(term);
      if (df === 0) continue;
      const w = inHead ? 1 : 0.5;
      scored.push({ term, w, rank: w * bm25Idf(df, this.count) });
    }
    scored.sort((a, b) => b.rank - a.rank || (a.term < b.term ? -1 : 1));
    const kept = scored.slice(0, RELATED_MAX_TERMS);
    return { terms: kept.map((s) => s.term), weights: kept.map((s) => s.w) };
  }

  /** Field-weighted, idf-weighted term vector (for cosine similarity). */
  private vectorOf(terms: Map<string, PackedTf>): Map<string, number> {
    const v = new Map<string, number>();
    for (const [term, tf] of terms) {
      const df = this.df(term);
      const w =
        FIELD_WEIGHTS.summary * (tf & 0xff) +
        FIELD_WEIGHTS.tags * ((tf >>> 8) & 0xff) +
        FIELD_WEIGHTS.body * (tf >>> 16);
      v.set(term, Math.sqrt(w) * bm25Idf(Math.max(df, 1), this.count));
    }
    return v;
  }

  private refreshNorms(): void {
    if (!this.normsDirty) return;
    const n = Math.max(this.count, 1);
    const avgS = Math.max(this.sumS / n, 1e-9);
    const avgT = Math.max(this.sumT / n, 1e-9);
    const avgB = Math.max(this.sumB / n, 1e-9);
    const w = this.ranking.fieldWeights;
    const b = this.ranking.fieldB;
    for (let d = 0; d < this.entries.length; d++) {
      if (!this.entries[d]) continue;
      this.normS[d] = w.summary / (1 - b.summary + (b.summary * this.lenS[d]!) / avgS);
      this.normT[d] = w.tags / (1 - b.tags + (b.tags * this.lenT[d]!) / avgT);
      this.normB[d] = w.body / (1 - b.body + (b.body * this.lenB[d]!) / avgB);
    }
    this.normsDirty = false;
  }

  private ensureCapacity(n: number): void {
    if (n <= this.acc.length) return;
    let cap = this.acc.length;
    while (cap < n) cap *= 2;
    const grow = <T extends Float64Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(cap);
      b.set(a);
      return b;
    };
    this.acc = grow(this.acc, (c) => new Float64Array(c));
    this.touched = new Int32Array(cap);
    this.candSlots = new Int32Array(cap);
    this.candScores = new Float64Array(cap);
    this.scoreScratch = new Float64Array(cap);
    this.normS = grow(this.normS, (c) => new Float64Array(c));
    this.normT = grow(this.normT, (c) => new Float64Array(c));
    this.normB = grow(this.normB, (c) => new Float64Array(c));
    this.stHit = grow(this.stHit, (c) => new Uint8Array(c));
    this.scopeCode = grow(this.scopeCode, (c) => new Uint8Array(c));
  }
}

export function analyseDocument(doc: Pick<SearchDocument, 'summary' | 'tags' | 'body'>): DocumentAnalysis {
  const s = analyze(doc.summary);
  const t = analyze(doc.tags.join(' '));
  const b = analyze(doc.body);
  const counts = new Map<string, [number, number, number]>();
  const bump = (terms: string[], field: 0 | 1 | 2) => {
    for (const term of terms) {
      let c = counts.get(term);
      if (!c) counts.set(term, (c = [0, 0, 0]));
      c[field]++;
    }
  };
  bump(s, 0);
  bump(t, 1);
  bump(b, 2);
  const terms: string[] = [];
  const tfs: PackedTf[] = [];
  for (const [term, [cs, ct, cb]] of counts) {
    terms.push(term);
    tfs.push(pack(cs, ct, cb));
  }
  return { terms, tfs, lengths: [s.length, t.length, b.length] };
}

function uniformQuery(terms: string[]): WeightedQuery {
  const unique = [...new Set(terms)];
  return { terms: unique, weights: unique.map(() => 1) };
}

function termCounts(note: NoteLike): Map<string, PackedTf> {
  const { terms, tfs } = analyseDocument(note);
  return new Map(terms.map((t, i) => [t, tfs[i]!]));
}

function cosine(a: Map<string, number>, b: Map<string, number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [t, x] of a) {
    na += x * x;
    const y = b.get(t);
    if (y !== undefined) dot += x * y;
  }
  for (const y of b.values()) nb += y * y;
  if (na === 0 || nb === 0) return 0;
  return Math.min(1, dot / Math.sqrt(na * nb));
}
