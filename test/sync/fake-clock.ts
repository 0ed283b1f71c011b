import type { Clock } from '../../electron/sync/clock.js';

/** A clock tests move by hand: timers fire in time order as `advance` passes them. */
export class FakeClock implements Clock {
  private seq = 0;
  private timers = new Map<number, { at: number; fn: () => void }>();
  constructor(public t = 1_800_000_000_000) {}

  now(): number {
    return this.t;
  }

  private timerWaiters: Array<() => void> = [];

  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.seq;
    this.timers.set(id, { at: this.t + Math.max(0, ms), fn });
    for (const w of this.timerWaiters.splice(0)) w();
    return id;
  }

  /** Resolves the next time anyone sets a timer (a round waiting for the request budget). */
  timerSet(): Promise<void> {
    return new Promise((resolve) => this.timerWaiters.push(resolve));
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** The earliest pending timer, if any. */
  next(): number | null {
    let at: number | null = null;
    for (const t of this.timers.values()) if (at === null || t.at < at) at = t.at;
    return at;
  }

  /**
   * Moves time forward by `ms`, firing due timers in order; after each, `settle` (e.g. the
   * coordinator's idle()) is awaited so rounds doing real I/O finish before time moves on.
   */
  async advance(ms: number, settle: () => Promise<void> = async () => {}): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      await settle();
      let nextId: number | null = null;
      let nextAt = Infinity;
      for (const [id, timer] of this.timers) {
        if (timer.at <= end && (timer.at < nextAt || (timer.at === nextAt && id < nextId!))) {
          nextAt = timer.at;
          nextId = id;
        }
      }
      if (nextId === null) break;
      const timer = this.timers.get(nextId)!;
      this.timers.delete(nextId);
      this.t = Math.max(this.t, timer.at);
      timer.fn();
      await new Promise((r) => setImmediate(r));
    }
    this.t = end;
    await settle();
  }
}
