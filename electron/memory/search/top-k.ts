/**
 * Keeps the best `k` of a stream of scored notes in a min-heap (O(n log k), no sort of every
 * candidate). Ties are broken deterministically: newer first, then by key (scope + id).
 */
interface Item {
  slot: number;
  score: number;
  updatedAt: number;
  key: string;
}

/** True when a ranks before (is better than) b. */
function better(a: Item, b: Item): boolean {
  if (a.score !== b.score) return a.score > b.score;
  if (a.updatedAt !== b.updatedAt) return a.updatedAt > b.updatedAt;
  return a.key < b.key;
}

export class TopK {
  private heap: Item[] = [];

  constructor(private readonly k: number) {}

  offer(slot: number, score: number, updatedAt: number, key: string): void {
    if (this.k <= 0) return;
    const item = { slot, score, updatedAt, key };
    const h = this.heap;
    if (h.length < this.k) {
      h.push(item);
      this.up(h.length - 1);
    } else if (better(item, h[0]!)) {
      h[0] = item;
      this.down(0);
    }
  }

  /** The kept slots, best first. */
  sorted(): number[] {
    return [...this.heap].sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0)).map((i) => i.slot);
  }

  // The root is the worst kept item.
  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!better(h[parent]!, h[i]!)) break;
      [h[parent], h[i]] = [h[i]!, h[parent]!];
      i = parent;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < h.length && better(h[worst]!, h[l]!)) worst = l;
      if (r < h.length && better(h[worst]!, h[r]!)) worst = r;
      if (worst === i) return;
      [h[worst], h[i]] = [h[i]!, h[worst]!];
      i = worst;
    }
  }
}
