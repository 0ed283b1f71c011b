/**
 * The best `k` of `n` scored candidates, best first, without sorting all of them: a quickselect
 * finds the k-th best score, then only the candidates at or above it are sorted (score, then
 * the tie-break). Candidates come as parallel typed arrays, so nothing is allocated per candidate.
 */
export function selectTop(
  slots: Int32Array,
  scores: Float64Array,
  n: number,
  k: number,
  /** Negative when slot a ranks before slot b at equal score. */
  tieBreak: (a: number, b: number) => number,
  /** Room for a copy of the n scores (the quickselect reorders it); allocated when not given. */
  scratch: Float64Array = new Float64Array(n),
): number[] {
  if (k <= 0 || n === 0) return [];
  let cut = -Infinity;
  if (n > k) {
    const copy = scratch.subarray(0, n);
    copy.set(scores.subarray(0, n));
    cut = kthLargest(copy, k);
  }
  const finalists: number[] = [];
  for (let i = 0; i < n; i++) if (scores[i]! >= cut) finalists.push(i);
  finalists.sort((a, b) => scores[b]! - scores[a]! || tieBreak(slots[a]!, slots[b]!));
  return finalists.slice(0, k).map((i) => slots[i]!);
}

/** The k-th largest value (1-based) of `a`; reorders `a`. Hoare-style quickselect, middle pivot. */
function kthLargest(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  const target = k - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! > pivot) i++;
      while (a[j]! < pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else return a[target]!;
  }
  return a[target]!;
}
