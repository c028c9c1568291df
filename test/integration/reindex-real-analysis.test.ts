import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { INDEX_RULES_VERSION } from '../../src/server/indexer/index-rules';
import { DRAWN_TEXT, fixturePath } from '../fixtures/media';
import { apiClient, waitForStatus } from '../helpers/api';
import { useService } from '../helpers/use-service';

// The built service as a child process with the real analyzers: a video indexed by an "older build" (its stamp
// cleared) is analyzed again after a restart and stays findable by its on-screen text throughout.
const testService = useService();
const stamp = z.object({ index_rules: z.string().nullable(), status: z.string() });

describe('re-indexing with the real indexer', () => {
  it('re-indexes an unstamped video after a restart, keeping it findable', async () => {
    const service = testService();
    const api = apiClient(service.baseUrl, service.key);
    const word = DRAWN_TEXT.split(' ')[0]!.toLowerCase();
    const found = async () =>
      (await api.post<{ videoNo: string }[]>('/search', { search_param: word })).json.data!.map((h) => h.videoNo);
    const videoNo = (await api.upload<{ videoNo: string }>(fixturePath('drawnTextMp4'))).json.data!.videoNo;
    expect((await waitForStatus(api, videoNo, 120_000)).status).toBe('PARSE');
    expect(await found()).toContain(videoNo);
    const stampOf = () =>
      service.withSql(async (sql) =>
        stamp.parse(await sql.get('SELECT index_rules, status FROM videos WHERE video_no = ?', videoNo)),
      );
    await service.withSql((sql) => sql.run('UPDATE videos SET index_rules = NULL WHERE video_no = ?', videoNo));
    await service.restart();
    await expect.poll(stampOf, { timeout: 120_000, interval: 200 }).toEqual({
      index_rules: INDEX_RULES_VERSION,
      status: 'PARSE',
    });
    expect(await found()).toContain(videoNo);
  }, 300_000);
});
