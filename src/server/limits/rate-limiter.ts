/** Sliding-window limiter per key (account + kind). In memory: limits protect the service, not billing. */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records a hit and returns 0, or returns the seconds to wait when the limit is reached (no hit recorded). */
  take(key: string): number {
    const now = this.now();
    const from = now - this.windowMs;
    const list = (this.hits.get(key) ?? []).filter((t) => t > from);
    if (list.length >= this.max) {
      this.hits.set(key, list);
      return Math.max(1, Math.ceil(((list[0] ?? now) + this.windowMs - now) / 1000));
    }
    list.push(now);
    this.hits.set(key, list);
    return 0;
  }
}
