import type { DocumentAnalysis } from './types.js';

/**
 * A persisted inverted index over one scope's notes (the index cache stores one per note
 * directory, ../index-cache.ts): the notes' analyses inverted into per-term postings, in a binary
 * layout that opens without parsing. Opening decodes only the term list; a term's postings and a
 * note's analysis are read from typed-array views when asked for, so a recall reads the postings
 * of the message's few terms instead of rebuilding the index from 10,000 analyses
 * (docs/performance.md, "Recall from the persisted index").
 *
 * Layout (little-endian uint32 unless said otherwise):
 *   T, N, P, H, B                 term count, note count, postings, summary/tag postings, term text bytes
 *   term text                     B bytes of UTF-8: the terms sorted by UTF-16 code unit, each ending in \0; padded to 4
 *   termPost[T+1], termHead[T+1]  where each term's postings and summary/tag postings start
 *   postDocs[P], postTfs[P]       note number and packed tf (search-index.ts) per posting, by term
 *   headDocs[H]                   notes with the term in their summary or tags, by term
 *   docStart[N+1], docTerms[P], docTfs[P]   each note's analysis in its own order (term numbers)
 *   lens[3N]                      each note's summary, tags and body lengths
 */
export interface IndexSegment {
  readonly docCount: number;
  /** The sorted terms. */
  readonly terms: readonly string[];
  /** The term's number, or -1. */
  find(term: string): number;
  /** Calls fn for each posting of term number t: note number and packed tf. */
  postings(t: number, fn: (doc: number, tf: number) => void): void;
  /** The number of notes with term number t. */
  df(t: number): number;
  /** Notes with term number t in their summary or tags. */
  heads(t: number): Uint32Array;
  /** Note `doc`'s analysis, exactly as it was indexed. */
  analysis(doc: number): DocumentAnalysis;
  /**
   * Note `doc`'s packed tfs of a few terms without reading its analysis: for each term number t of
   * the note with `marks[t] = k + 1`, sets `out[k]` to its tf (other entries of `out` unchanged).
   */
  lookupTfs(doc: number, marks: Int32Array, out: Int32Array): void;
  /** Note `doc`'s summary, tags and body lengths (without reading its analysis). */
  lengths(doc: number): readonly [number, number, number];
}

const FIELDS = 5;

/**
 * The segment of `analyses` (note number = position). Two passes over the analyses with counts and
 * typed arrays, no per-posting objects: the first write of the cache at 10,000 notes encodes ~1M
 * postings, and a [doc, tf] pair per posting made most of that write garbage collection.
 */
export function encodeIndexSegment(analyses: readonly DocumentAnalysis[]): Buffer {
  const N = analyses.length;
  let postingCount = 0;
  for (const a of analyses) postingCount += a.terms.length;
  // Pass 1: a number per distinct term (first seen first), each posting's term number, and each
  // term's posting and summary/tag posting counts.
  const idOf = new Map<string, number>();
  const firstSeen: string[] = [];
  const postingIds = new Uint32Array(postingCount);
  let counts: Uint32Array = new Uint32Array(1024);
  let headCounts: Uint32Array = new Uint32Array(1024);
  let headCount = 0;
  let q = 0;
  for (const a of analyses) {
    for (let i = 0; i < a.terms.length; i++) {
      const term = a.terms[i]!;
      let id = idOf.get(term);
      if (id === undefined) {
        id = firstSeen.length;
        idOf.set(term, id);
        firstSeen.push(term);
        if (id === counts.length) {
          counts = grown(counts);
          headCounts = grown(headCounts);
        }
      }
      postingIds[q++] = id;
      counts[id]!++;
      if ((a.tfs[i]! & 0xffff) !== 0) {
        headCounts[id]!++;
        headCount++;
      }
    }
  }
  const T = firstSeen.length;
  // Term numbers in the file are ranks in code-unit order (the same order as `[...terms].sort()`).
  const byRank = Array.from({ length: T }, (_, id) => id).sort((x, y) =>
    firstSeen[x]! < firstSeen[y]! ? -1 : firstSeen[x]! > firstSeen[y]! ? 1 : 0,
  );
  const rankOf = new Uint32Array(T);
  byRank.forEach((id, rank) => (rankOf[id] = rank));
  const text = Buffer.from(byRank.map((id) => `${firstSeen[id]!}\0`).join(''), 'utf8');
  const textWords = Math.ceil(text.length / 4);
  const out = new Uint32Array(segmentWords(textWords, T, N, postingCount, headCount));
  out.set([T, N, postingCount, headCount, text.length]);
  Buffer.from(out.buffer).set(text, FIELDS * 4);
  const { termPost, termHead, postDocs, postTfs, headDocs, docStart, docTerms, docTfs, lens } =
    segmentSections(out, textWords, T, N, postingCount, headCount);
  let p = 0;
  let h = 0;
  for (let rank = 0; rank < T; rank++) {
    const id = byRank[rank]!;
    termPost[rank] = p;
    termHead[rank] = h;
    p += counts[id]!;
    h += headCounts[id]!;
  }
  termPost[T] = p;
  termHead[T] = h;
  // Pass 2: notes in order, so each term's postings come out in note order; the starts above
  // become each term's write cursor.
  const postAt = termPost.slice(0, T);
  const headAt = termHead.slice(0, T);
  q = 0;
  analyses.forEach((a, doc) => {
    docStart[doc] = q;
    for (let i = 0; i < a.terms.length; i++, q++) {
      const rank = rankOf[postingIds[q]!]!;
      const tf = a.tfs[i]!;
      docTerms[q] = rank;
      docTfs[q] = tf;
      postDocs[postAt[rank]!] = doc;
      postTfs[postAt[rank]!++] = tf;
      if ((tf & 0xffff) !== 0) headDocs[headAt[rank]!++] = doc;
    }
    lens.set(a.lengths, 3 * doc);
  });
  docStart[N] = q;
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}

/**
 * The size in 32-bit words of a segment of T terms, N notes, P postings and H head postings, its
 * term text taking `textWords`: the header, the text, then the sections of segmentSections.
 */
function segmentWords(textWords: number, T: number, N: number, P: number, H: number): number {
  return FIELDS + textWords + 2 * (T + 1) + 4 * P + H + (N + 1) + 3 * N;
}

/** The sections of a segment after its header and term text, in the order they are written. */
function segmentSections(words: Uint32Array, textWords: number, T: number, N: number, P: number, H: number) {
  let at = FIELDS + textWords;
  const next = (length: number) => words.subarray(at, (at += length));
  return {
    termPost: next(T + 1),
    termHead: next(T + 1),
    postDocs: next(P),
    postTfs: next(P),
    headDocs: next(H),
    docStart: next(N + 1),
    docTerms: next(P),
    docTfs: next(P),
    lens: next(3 * N),
  };
}

function grown(counts: Uint32Array): Uint32Array {
  const next = new Uint32Array(counts.length * 2);
  next.set(counts);
  return next;
}

/** Opens a segment written by encodeIndexSegment; null when its sizes do not add up. */
export function openIndexSegment(buf: Buffer): IndexSegment | null {
  if (buf.length < FIELDS * 4 || buf.length % 4 !== 0) return null;
  // A view needs 4-byte alignment; a section inside a larger file read may not have it.
  const words =
    buf.byteOffset % 4 === 0
      ? new Uint32Array(buf.buffer, buf.byteOffset, buf.length / 4)
      : new Uint32Array(Uint8Array.prototype.slice.call(buf).buffer);
  const [T, N, P, H, B] = words as unknown as [number, number, number, number, number];
  const textWords = Math.ceil(B / 4);
  if (words.length !== segmentWords(textWords, T, N, P, H)) return null;
  const terms = buf.toString('utf8', FIELDS * 4, FIELDS * 4 + B).split('\0');
  terms.pop(); // after the last \0
  if (terms.length !== T) return null;
  const { termPost, termHead, postDocs, postTfs, headDocs, docStart, docTerms, docTfs, lens } =
    segmentSections(words, textWords, T, N, P, H);
  return {
    docCount: N,
    terms,
    find(term) {
      let lo = 0;
      let hi = T - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const t = terms[mid]!;
        if (t === term) return mid;
        if (t < term) lo = mid + 1;
        else hi = mid - 1;
      }
      return -1;
    },
    postings(t, fn) {
      for (let i = termPost[t]!, end = termPost[t + 1]!; i < end; i++) fn(postDocs[i]!, postTfs[i]!);
    },
    df: (t) => termPost[t + 1]! - termPost[t]!,
    heads: (t) => headDocs.subarray(termHead[t]!, termHead[t + 1]!),
    analysis(doc) {
      const from = docStart[doc]!;
      const to = docStart[doc + 1]!;
      const ts: string[] = [];
      for (let i = from; i < to; i++) ts.push(terms[docTerms[i]!]!);
      return { terms: ts, tfs: Array.from(docTfs.subarray(from, to)), lengths: this.lengths(doc) };
    },
    lookupTfs(doc, marks, out) {
      for (let i = docStart[doc]!, end = docStart[doc + 1]!; i < end; i++) {
        const k = marks[docTerms[i]!]!;
        if (k !== 0) out[k - 1] = docTfs[i]!;
      }
    },
    lengths: (doc) => [lens[3 * doc]!, lens[3 * doc + 1]!, lens[3 * doc + 2]!],
  };
}
