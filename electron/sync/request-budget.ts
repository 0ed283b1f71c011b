import type { Clock } from './clock.js';
import type { DeviceLimitsFile } from './owner/device-limits.js';

/**
 * The device's request budget: about 20 automatic requests a minute, which
 * leaves room under the server's per-account limit for the person's other devices. A sliding
 * window of request start times; `delayFor()` says how long an automatic request must wait.
 * With `shared`, the window lives in the home's device-limits file, so every process of the
 * device spends from one budget; without it, in this object (tests of the scheduler alone).
 */
export class RequestBudget {
  private starts: number[] = [];
  constructor(
    private readonly clock: Clock,
    readonly perMinute = 20,
    readonly windowMs = 60_000,
    private readonly shared?: DeviceLimitsFile,
  ) {}

  private window(now: number): number[] {
    const all = this.shared ? this.shared.read().starts : this.starts;
    return all.filter((t) => t > now - this.windowMs);
  }

  /** Milliseconds until another request fits the budget (0 = now). */
  delayFor(): number {
    const now = this.clock.now();
    const starts = this.window(now);
    if (starts.length < this.perMinute) return 0;
    return Math.min(...starts) + this.windowMs - now;
  }

  record(): void {
    const now = this.clock.now();
    if (this.shared) this.shared.update((l) => ({ ...l, starts: [...this.window(now), now] }));
    else this.starts = [...this.window(now), now];
  }

  /** Requests started in the last window. */
  used(): number {
    return this.window(this.clock.now()).length;
  }
}
