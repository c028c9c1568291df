import { describeError } from '../../shared/errors';
import type { LibraryClient } from '../api/client';
import { isLibraryOffline } from '../api/app-errors';
import { LibraryApiError } from '../api/errors';

export interface ConnectivityState {
  online: boolean;
  checkedAt: number | null;
  error: string | null;
}

/**
 * Whether the library service answers: a free call (the folder list) every `everyMs`, and at once on `check()`.
 * Only transport failures and 5xx count as offline; a refused key is "online" (the service answered).
 */
export class Connectivity {
  private state: ConnectivityState = { online: false, checkedAt: null, error: null };
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly client: LibraryClient,
    private readonly onChange: (s: ConnectivityState & { checkedAt: number }) => void,
    private readonly everyMs = 15_000,
  ) {}

  current(): ConnectivityState {
    return this.state;
  }

  start(): void {
    void this.check();
    this.timer = setInterval(() => void this.check(), this.everyMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  async check(): Promise<ConnectivityState> {
    let online = true;
    let error: string | null = null;
    try {
      await this.client.listFolders(AbortSignal.timeout(5_000));
    } catch (err) {
      // Any answer of the service means it is there (a refused key too); only what says unreachable is offline.
      online = err instanceof LibraryApiError && !isLibraryOffline(err);
      error = describeError(err);
    }
    const changed = online !== this.state.online || this.state.checkedAt === null;
    const checkedAt = Date.now();
    this.state = { online, checkedAt, error };
    if (changed) this.onChange({ online, checkedAt, error });
    return this.state;
  }
}
