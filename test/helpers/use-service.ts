import { afterAll, beforeAll } from 'vitest';
import { startService, type TestService } from './service';

export type ServiceOptions = Parameters<typeof startService>[0];

/**
 * Starts the real library service for the enclosing file or describe (before the hooks registered after this call)
 * and stops it after them; read it inside tests or hooks. As `useDatalakeSuite` does for interface B suites.
 * `options` may be a function, called in the hook: for options that hooks registered before this call prepare (a
 * model hub's URL, a file the service is pointed at).
 */
export function useService(
  options: ServiceOptions | (() => ServiceOptions | Promise<ServiceOptions>) = {},
): () => TestService {
  let service: TestService | undefined;
  beforeAll(async () => {
    service = await startService(typeof options === 'function' ? await options() : options);
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
  });
  return () => {
    if (!service) throw new Error('useService(): the service is read before its beforeAll ran');
    return service;
  };
}
