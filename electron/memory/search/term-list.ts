/**
 * The index's own terms (those with postings in memory) in UTF-16 code-unit order — the order of a
 * persisted segment's terms — so find-as-you-type looks a prefix up by binary search instead of
 * scanning the vocabulary on every key.
 *
 * Kept in step with the postings lazily: a new term is queued (`add`), a term whose last posting
 * went is only counted (`removed`), and both are applied on the next lookup — one merge of the
 * queued terms, or one pass dropping the stale ones — so indexing 10,000 notes never sorts per
 * term. Membership is always `isLive` (the postings map): a stale entry is never reported.
 */
export class SortedTerms {
  private sorted: string[] = [];
  private queued: string[] = [];
  private stale = 0;

  constructor(private readonly isLive: (term: string) => boolean) {}

  /** A term got its first posting. */
  add(term: string): void {
    this.queued.push(term);
  }

  /** A term lost its last posting. */
  removed(): void {
    this.stale++;
  }

  clear(): void {
    this.sorted = [];
    this.queued = [];
    this.stale = 0;
  }

  /** Every live term, in code-unit order. */
  all(): readonly string[] {
    this.settle();
    return this.sorted;
  }

  /** The live terms starting with `prefix`, in code-unit order. */
  withPrefix(prefix: string): string[] {
    const terms = this.all();
    const out: string[] = [];
    for (let i = lowerBound(terms, prefix); i < terms.length && terms[i]!.startsWith(prefix); i++)
      out.push(terms[i]!);
    return out;
  }

  private settle(): void {
    if (this.queued.length === 0 && this.stale === 0) return;
    let terms = this.sorted;
    if (this.queued.length > 0) {
      // Sorted run + a short unsorted tail: the engine's merge sort merges the two runs.
      terms = terms.concat(this.queued).sort();
      this.queued = [];
    }
    // Drop terms whose postings went, and repeats (a term removed and added again before a lookup).
    const kept: string[] = [];
    for (const t of terms) if (t !== kept[kept.length - 1] && this.isLive(t)) kept.push(t);
    this.sorted = kept;
    this.stale = 0;
  }
}

/** The first index whose term is ≥ `key` (code-unit order). */
export function lowerBound(terms: readonly string[], key: string): number {
  let lo = 0;
  let hi = terms.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (terms[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
