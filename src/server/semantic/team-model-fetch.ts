import type { Logger } from 'pino';
import type { CompleteMarker, ModelCache } from './model-cache';
import { downloadModel, type DownloadProgress } from './model-download';
import type { ModelRequests } from './model-requests';
import type { SemanticConfig } from './semantic-config';
import type { SharedModelStore } from './shared-model-store';

/** A fetch lease lasts this long past its holder's last renewal; the holder renews it three times as often. */
const DEFAULT_LEASE_MS = 30_000;

export type TeamFetchOutcome =
  | { kind: 'ready'; marker: CompleteMarker; from: 'host' | 'team store' }
  /** Another process holds the fetch lease: look again later (the model may be in the team store by then). */
  | { kind: 'waiting' };

/**
 * How a process of a team server gets an asked-for model into its cache: from the team's blob store when another
 * process published it there; otherwise, holding the fetch lease (model-requests.ts), from the model host, then it
 * publishes it for the others. So the host serves the model once per team, not once per process, and workers in a
 * network without a way out get it too. A holder that dies leaves a lease that lapses, and the next process to look
 * takes the fetch over; a store copy that fails its check is fetched from the host instead.
 */
export class TeamModelFetch {
  constructor(
    private readonly requests: ModelRequests,
    private readonly store: SharedModelStore,
    private readonly owner: string,
    private readonly log: Logger,
    private readonly leaseMs = DEFAULT_LEASE_MS,
  ) {}

  /** Whether another process published the model in the team store (a process whose own fetch failed takes it then). */
  async published(config: SemanticConfig): Promise<boolean> {
    return (await this.store.manifest(config)) !== null;
  }

  async acquire(
    config: SemanticConfig,
    cache: ModelCache,
    onProgress: (p: DownloadProgress) => void,
    signal: AbortSignal,
  ): Promise<TeamFetchOutcome> {
    const copied = await this.fromStore(config, cache, onProgress, signal);
    if (copied) return copied;
    if (!(await this.requests.claimFetch(config, this.owner, Date.now() + this.leaseMs))) return { kind: 'waiting' };
    let bytes = { fetched: 0, total: null as number | null };
    const renewal = setInterval(() => {
      this.requests
        .renewFetch(config, this.owner, Date.now() + this.leaseMs, bytes)
        .catch((err: unknown) =>
          this.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'model fetch lease renewal failed'),
        );
    }, this.leaseMs / 3);
    try {
      // The holder before may have published it between the look above and the claim.
      const published = await this.fromStore(config, cache, onProgress, signal);
      if (published) return published;
      const marker = await downloadModel(
        config,
        cache,
        (p) => {
          bytes = { fetched: p.receivedBytes, total: p.totalBytes };
          onProgress(p);
        },
        signal,
      );
      // The model is in this process's cache either way: a store that refuses it costs the others a fetch of their own.
      await this.store
        .publish(config, cache, marker)
        .catch((err: unknown) =>
          this.log.warn(
            { err: err instanceof Error ? err.message : String(err) },
            'the semantic model could not be published in the team store: the other processes fetch it from the host',
          ),
        );
      return { kind: 'ready', marker, from: 'host' };
    } finally {
      clearInterval(renewal);
      await this.requests.releaseFetch(config, this.owner).catch(() => undefined);
    }
  }

  /** The model copied from the team store, or null when it is not there or its copy fails its check. */
  private async fromStore(
    config: SemanticConfig,
    cache: ModelCache,
    onProgress: (p: DownloadProgress) => void,
    signal: AbortSignal,
  ): Promise<TeamFetchOutcome | null> {
    const published = await this.store.manifest(config);
    if (!published) return null;
    try {
      const marker = await this.store.copyInto(config, cache, published, onProgress, signal);
      return { kind: 'ready', marker, from: 'team store' };
    } catch (err) {
      if (signal.aborted) throw err;
      this.log.warn(
        { err: err instanceof Error ? err.message : String(err) },
        "the team store's copy of the semantic model failed: fetching it from the host",
      );
      return null;
    }
  }
}
