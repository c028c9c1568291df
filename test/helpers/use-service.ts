import { afterAll, beforeAll } from 'vitest';
import { startService, type TestService } from './service';

/**
 * Starts the real library service for the enclosing file or describe (before the hooks registered after this call)
 * and stops it after; read it inside tests or hooks. As `useDatalakeSuite` does for interface B suites.
 */
export function useService(options: Parameters<typeof startService>[0] = {}): () => TestService {
  let service: TestService | undefined;
  beforeAll(async () => {
    service = await startService(options);
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
  });
  return () => {
    if (!service) throw new Error('useService(): the service is read before its beforeAll ran');
    return service;
  };
}
