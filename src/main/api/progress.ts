export interface TransferProgress {
  bytes: number;
  total: number;
  /** Bytes per second, smoothed. */
  rate: number;
  /** Seconds left at the current rate, or null before a rate is known. */
  etaSeconds: number | null;
}

/** Bytes, smoothed rate and ETA of one transfer; `tick` returns a snapshot at most every `everyMs`. */
export class ProgressMeter {
  private bytes = 0;
  private rate = 0;
  private lastAt: number;
  private lastBytes = 0;
  private lastEmit = 0;

  constructor(
    readonly total: number,
    private readonly everyMs = 250,
    private readonly now: () => number = Date.now,
  ) {
    this.lastAt = now();
  }

  add(n: number): TransferProgress | null {
    this.bytes += n;
    const t = this.now();
    const dt = t - this.lastAt;
    if (dt >= this.everyMs) {
      const instant = ((this.bytes - this.lastBytes) * 1000) / dt;
      this.rate = this.rate === 0 ? instant : this.rate * 0.7 + instant * 0.3;
      this.lastAt = t;
      this.lastBytes = this.bytes;
    }
    if (t - this.lastEmit < this.everyMs && this.bytes < this.total) return null;
    this.lastEmit = t;
    return this.snapshot();
  }

  snapshot(): TransferProgress {
    const left = Math.max(0, this.total - this.bytes);
    return {
      bytes: this.bytes,
      total: this.total,
      rate: this.rate,
      etaSeconds: this.rate > 0 ? left / this.rate : null,
    };
  }
}
