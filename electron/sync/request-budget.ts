import type { Clock } from './clock.js';

/**
 * The process-wide request budget: about 20 automatic requests a minute, which
 * leaves room under the server's per-account limit for the person's other devices. A sliding
 * window of request start times; `delayFor()` says how long an automatic request must wait.
 */
export class RequestBudget {
  private starts: number[] = [];
  constructor(
    private readonly clock: Clock,
    readonly perMinute = 20,
    readonly windowMs = 60_000,
  ) {}

  private prune(now: number): void {
    while (this.starts.length > 0 && this.starts[0]! <= now - this.windowMs) this.starts.shift();
  }

  /** Milliseconds until another request fits the budget (0 = now). */
  delayFor(): number {
    const now = this.clock.now();
    this.prune(now);
    if (this.starts.length < this.perMinute) return 0;
    return this.starts[0]! + this.windowMs - now;
  }

  record(): void {
    const now = this.clock.now();
    this.prune(now);
    this.starts.push(now);
  }

  /** Requests started in the last window. */
  used(): number {
    this.prune(this.clock.now());
    return this.starts.length;
  }
}
