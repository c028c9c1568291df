import { PRICES_MICRO_USD } from '../../shared/api-types';
import type { Quote } from '../../shared/contract/downloads';

/** 0.12 USD per GB (10^9 bytes), rounded up to the micro-dollar: the same rule the service bills by. */
export function downloadMicroUsd(bytes: number): number {
  return Math.ceil((bytes * PRICES_MICRO_USD.downloadPerGb) / 1e9);
}

export function quoteOf(bytes: number | null, note: string): Quote {
  return { bytes, usd: bytes === null ? null : downloadMicroUsd(bytes) / 1e6, note };
}

export function formatUsd(usd: number | null): string {
  if (usd === null) return 'unknown';
  return usd < 0.01 ? `$${usd.toFixed(6)}` : `$${usd.toFixed(4)}`;
}

/** The videoNo a video blob belongs to (`videos/<videoNo>/<name>`), or null. */
export function videoNoOfBlob(blob: string): string | null {
  return /^videos\/([^/]+)\//.exec(blob)?.[1] ?? null;
}
