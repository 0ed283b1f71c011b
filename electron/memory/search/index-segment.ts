import { crc32 } from 'node:zlib';
import type { DocumentAnalysis } from './types.js';

/**
 * A persisted inverted index over one scope's notes (the index cache stores one per note
 * directory, ../index-cache.ts): the notes' analyses inverted into per-term postings, in a binary
 * layout that opens without parsing. It comes in two parts: the head (term list, where each list
 * starts, summary/tag postings, lengths — ~6% of it) is read at open; the lists (each term's
 * postings, each note's analysis) are read one list at a time when asked for, so a one-shot recall
 * touches the few lists of its message instead of megabytes (docs/performance.md, "Recall from
 * the persisted index", "The index's lists stay on disk").
 *
 * Head (little-endian uint32 unless said otherwise):
 *   T, N, P, H, B                 term count, note count, postings, summary/tag postings, term text bytes
 *   term text                     B bytes of UTF-8: the terms sorted by UTF-16 code unit, each ending in \0; padded to 4
 *   termPost[T+1], termHead[T+1]  where each term's postings and summary/tag postings start
 *   headDocs[H]                   notes with the term in their summary or tags, by term
 *   docStart[N+1]                 where each note's analysis starts
 *   lens[3N]                      each note's summary, tags and body lengths
 *   listCrc[T+N]                  CRC-32 of each term's postings list, then of each note's analysis list
 * Lists (uint32, 4P words):
 *   term t at word 2·termPost[t]:         its notes, then their packed tfs (search-index.ts)
 *   note d at word 2P + 2·docStart[d]:    its term numbers, then their packed tfs, in its own order
 * A list that does not match its CRC when read throws SegmentDamagedError: the index holding the
 * segment analyses its notes again (search-index.ts), never answers from it.
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

/** Where a segment's lists are read from: the section in memory, or the cache file by offset. */
export interface SegmentLists {
  /** `words` 32-bit words of the lists section from word `at`; null when they cannot be read. */
  read(at: number, words: number): Uint32Array | null;
  /** True once what read() serves was checked as a whole (the section's CRC): no per-list check. */
  readonly checked: boolean;
  /** The error to throw for a list that is damaged (the owner learns its file cannot be trusted). */
  damaged(what: string): SegmentDamagedError;
}

/** A list of a persisted segment does not hold what was written (damaged on disk). */
export class SegmentDamagedError extends Error {
  override readonly name = 'SegmentDamagedError';
}

/** The encoded segment: the head read at open and the lists read when asked for. */
export interface EncodedSegment {
  head: Buffer;
  lists: Buffer;
}

const FIELDS = 5;

/**
 * The segment of `analyses` (note number = position). Two passes over the analyses with counts and
 * typed arrays, no per-posting objects: the first write of the cache at 10,000 notes encodes ~1M
 * postings, and a [doc, tf] pair per posting made most of that write garbage collection.
 */
export function encodeIndexSegment(analyses: readonly DocumentAnalysis[]): EncodedSegment {
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
  const P = postingCount;
  // Term numbers in the file are ranks in code-unit order (the same order as `[...terms].sort()`).
  const byRank = Array.from({ length: T }, (_, id) => id).sort((x, y) =>
    firstSeen[x]! < firstSeen[y]! ? -1 : firstSeen[x]! > firstSeen[y]! ? 1 : 0,
  );
  const rankOf = new Uint32Array(T);
  byRank.forEach((id, rank) => (rankOf[id] = rank));
  const text = Buffer.from(byRank.map((id) => `${firstSeen[id]!}\0`).join(''), 'utf8');
  const textWords = Math.ceil(text.length / 4);
  const head = new Uint32Array(headWords(textWords, T, N, headCount));
  head.set([T, N, P, headCount, text.length]);
  Buffer.from(head.buffer).set(text, FIELDS * 4);
  const { termPost, termHead, headDocs, docStart, lens, listCrc } = headSections(
    head,
    textWords,
    T,
    N,
    headCount,
  );
  const lists = new Uint32Array(4 * P);
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
  // Pass 2: notes in order, so each term's postings come out in note order; `filled` counts each
  // term's postings written so far.
  const filled = new Uint32Array(T);
  const headAt = termHead.slice(0, T);
  q = 0;
  analyses.forEach((a, doc) => {
    docStart[doc] = q;
    const k = a.terms.length;
    const own = 2 * P + 2 * q;
    for (let i = 0; i < k; i++, q++) {
      const rank = rankOf[postingIds[q]!]!;
      const tf = a.tfs[i]!;
      lists[own + i] = rank;
      lists[own + k + i] = tf;
      const c = termPost[rank + 1]! - termPost[rank]!;
      const at = 2 * termPost[rank]! + filled[rank]!++;
      lists[at] = doc;
      lists[at + c] = tf;
      if ((tf & 0xffff) !== 0) headDocs[headAt[rank]!++] = doc;
    }
    lens.set(a.lengths, 3 * doc);
  });
  docStart[N] = q;
  for (let t = 0; t < T; t++) listCrc[t] = crc32(lists.subarray(2 * termPost[t]!, 2 * termPost[t + 1]!));
  for (let d = 0; d < N; d++)
    listCrc[T + d] = crc32(lists.subarray(2 * P + 2 * docStart[d]!, 2 * P + 2 * docStart[d + 1]!));
  return {
    head: Buffer.from(head.buffer, head.byteOffset, head.byteLength),
    lists: Buffer.from(lists.buffer, lists.byteOffset, lists.byteLength),
  };
}

/**
 * The size in 32-bit words of the head of a segment of T terms, N notes and H head postings, its
 * term text taking `textWords`: the fields, the text, then the sections of headSections.
 */
function headWords(textWords: number, T: number, N: number, H: number): number {
  return FIELDS + textWords + 2 * (T + 1) + H + (N + 1) + 3 * N + (T + N);
}

/** The sections of a head after its fields and term text, in the order they are written. */
function headSections(words: Uint32Array, textWords: number, T: number, N: number, H: number) {
  let at = FIELDS + textWords;
  const next = (length: number) => words.subarray(at, (at += length));
  return {
    termPost: next(T + 1),
    termHead: next(T + 1),
    headDocs: next(H),
    docStart: next(N + 1),
    lens: next(3 * N),
    listCrc: next(T + N),
  };
}

function grown(counts: Uint32Array): Uint32Array {
  const next = new Uint32Array(counts.length * 2);
  next.set(counts);
  return next;
}

/** 4-byte aligned words of `buf` (a view when it is aligned, else a copy). */
function wordsOf(buf: Uint8Array): Uint32Array {
  return buf.byteOffset % 4 === 0
    ? new Uint32Array(buf.buffer, buf.byteOffset, buf.length / 4)
    : new Uint32Array(Uint8Array.prototype.slice.call(buf).buffer);
}

/**
 * Opens a segment from its head (read now) and its lists (read when asked for); null when the
 * head's sizes do not add up or the lists are not the size the head says.
 */
export function openIndexSegment(
  headBuf: Buffer,
  lists: SegmentLists,
  listsBytes: number,
): IndexSegment | null {
  if (headBuf.length < FIELDS * 4 || headBuf.length % 4 !== 0) return null;
  // A view needs 4-byte alignment; a section inside a larger file read may not have it.
  const words = wordsOf(headBuf);
  const [T, N, P, H, B] = words as unknown as [number, number, number, number, number];
  const textWords = Math.ceil(B / 4);
  if (words.length !== headWords(textWords, T, N, H) || listsBytes !== 16 * P) return null;
  const terms = headBuf.toString('utf8', FIELDS * 4, FIELDS * 4 + B).split('\0');
  terms.pop(); // after the last \0
  if (terms.length !== T) return null;
  const { termPost, termHead, headDocs, docStart, lens, listCrc } = headSections(words, textWords, T, N, H);
  // Checked at every read (lists are small): a list read again is read from the file again.
  const list = (i: number, at: number, n: number, what: string): Uint32Array => {
    const v = lists.read(at, n);
    if (!v || v.length !== n) throw lists.damaged(`${what} cannot be read`);
    if (!lists.checked && crc32(v) !== listCrc[i]) throw lists.damaged(`${what} does not match its checksum`);
    return v;
  };
  const termList = (t: number) =>
    list(t, 2 * termPost[t]!, 2 * (termPost[t + 1]! - termPost[t]!), `the postings of "${terms[t]!}"`);
  const docList = (doc: number) =>
    list(
      T + doc,
      2 * P + 2 * docStart[doc]!,
      2 * (docStart[doc + 1]! - docStart[doc]!),
      `note ${doc}'s terms`,
    );
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
      const v = termList(t);
      const c = v.length / 2;
      for (let j = 0; j < c; j++) fn(v[j]!, v[c + j]!);
    },
    df: (t) => termPost[t + 1]! - termPost[t]!,
    heads: (t) => headDocs.subarray(termHead[t]!, termHead[t + 1]!),
    analysis(doc) {
      const v = docList(doc);
      const k = v.length / 2;
      const ts: string[] = [];
      for (let i = 0; i < k; i++) ts.push(terms[v[i]!]!);
      return { terms: ts, tfs: Array.from(v.subarray(k)), lengths: this.lengths(doc) };
    },
    lookupTfs(doc, marks, out) {
      const v = docList(doc);
      const k = v.length / 2;
      for (let i = 0; i < k; i++) {
        const m = marks[v[i]!]!;
        if (m !== 0) out[m - 1] = v[k + i]!;
      }
    },
    lengths: (doc) => [lens[3 * doc]!, lens[3 * doc + 1]!, lens[3 * doc + 2]!],
  };
}
