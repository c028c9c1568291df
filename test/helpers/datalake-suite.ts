import { afterAll, beforeAll } from 'vitest';
import {
  datalakeClient,
  startMediaServer,
  type DatalakeClient,
  type DlResponse,
  type MediaServer,
  type Operation,
} from './datalake';
import { startService, type BlobBackend, type TestService } from './service';

/** What an interface B suite works with: the service, a datalake caller of account "test", its "main" collection. */
export interface DatalakeSuite {
  service: TestService;
  dl: DatalakeClient;
  /** The raw datalake key `dl` sends. */
  key: string;
  media: MediaServer;
  collection: string;
  /** POST /videos into the main collection. */
  ingest(body: Record<string, unknown>): Promise<DlResponse<Operation>>;
  balance(): Promise<number>;
}

/**
 * Starts, for the enclosing describe, a service on `backend` (with `config`), a media server, account "test"'s
 * datalake key and its "main" collection; stops them after. Read it inside tests or hooks.
 */
export function useDatalakeSuite(backend: BlobBackend, config?: object): () => DatalakeSuite {
  let suite: DatalakeSuite | undefined;
  let started: { service?: TestService; media?: MediaServer } = {};
  beforeAll(async () => {
    const media = await startMediaServer();
    started = { media };
    const service = await startService({ backend, config });
    started.service = service;
    const key = service.createKey('test', { kind: 'datalake' });
    const dl = datalakeClient(service.origin, key);
    const collection = (await dl.post<{ collection_id: string }>('/collections', { name: 'main' })).json.collection_id;
    suite = {
      service,
      dl,
      key,
      media,
      collection,
      ingest: (body) => dl.post<Operation>('/videos', { collection_id: collection, ...body }),
      balance: async () => (await dl.get<{ balance_micro_usd: number }>('/usage/balance')).json.balance_micro_usd,
    };
  }, 120_000);
  afterAll(async () => {
    await started.service?.stop();
    await started.media?.close();
  });
  return () => {
    if (!suite) throw new Error('useDatalakeSuite: read the suite inside tests or hooks');
    return suite;
  };
}
