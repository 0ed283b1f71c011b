/**
 * Per-account token bucket: `requests` per `windowMs`, refilled continuously, bursting up to
 * `requests`. In memory, so each server process counts on its own (N processes allow N times the
 * rate; see docs/self-hosting.md). Returns the seconds to wait, or 0 when the request may go.
 */
export interface RateLimitConfig {
  requests: number;
  windowMs: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly config: RateLimitConfig,
    private readonly now: () => number,
  ) {}

  take(account: string): number {
    const now = this.now();
    const rate = this.config.requests / this.config.windowMs; // tokens per ms
    const bucket = this.buckets.get(account) ?? { tokens: this.config.requests, at: now };
    bucket.tokens = Math.min(this.config.requests, bucket.tokens + Math.max(0, now - bucket.at) * rate);
    bucket.at = now;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      this.buckets.set(account, bucket);
      if (this.buckets.size > 100_000) this.sweep(now);
      return 0;
    }
    this.buckets.set(account, bucket);
    return Math.max(1, Math.ceil((1 - bucket.tokens) / rate / 1000));
  }

  /** Forget full buckets, so memory stays bounded by the accounts active within one window. */
  private sweep(now: number): void {
    for (const [account, bucket] of this.buckets) {
      if (now - bucket.at > this.config.windowMs) this.buckets.delete(account);
    }
  }
}
