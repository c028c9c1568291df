import { beforeAll, expect, it } from 'vitest';
import { photoPath } from '../fixtures/media';
import { apiClient } from '../helpers/api';
import type { TestService } from '../helpers/service';
import { useService } from '../helpers/use-service';

// A route that does slow work after reading its body, through the real service with an idle timeout far shorter than
// that work: a photo search's first query loads the face models (seconds). Without 102 Processing (keep-alive.ts) the
// connection is closed as silent and the client gets no answer.
const IDLE_MS = 300;
let service: TestService;

const testService = useService({ config: { http: { idleTimeoutMs: IDLE_MS }, indexer: { paused: true } } });
beforeAll(async () => {
  service = testService();
});

it('answers a photo search whose model load outlasts the idle timeout', async () => {
  const api = apiClient(service.baseUrl, service.key);
  const started = Date.now();
  const res = await api.upload<{ faces_in_query: number }>(
    await photoPath('astronaut'),
    {},
    { contentType: 'image/png', path: '/search_image' },
  );
  expect(Date.now() - started).toBeGreaterThan(IDLE_MS * 2); // the work did outlast the timeout
  expect(res.json.code).toBe('0000');
  expect(res.json.data!.faces_in_query).toBeGreaterThan(0);
});
