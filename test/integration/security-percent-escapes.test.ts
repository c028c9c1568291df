import { FormData } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { datalakeClient, type DatalakeClient } from '../helpers/datalake';
import type { TestService } from '../helpers/service';
import { useService } from '../helpers/use-service';

let service: TestService;
let dl: DatalakeClient;
let collection: string;

const testService = useService({ config: { indexer: { paused: true } } });
beforeAll(async () => {
  service = testService();
  dl = datalakeClient(service.origin, service.createKey('test', { kind: 'datalake' }));
  collection = (await dl.post<{ collection_id: string }>('/collections', { name: 'escapes' })).json.collection_id;
}, 60_000);

describe('malformed percent-escapes in datalake ingest URLs', () => {
  // `%zz` is no escape at all; `%ff` is one byte that is not UTF-8: decodeURIComponent throws on both.
  it.each(['http://127.0.0.1:9/v/%zz.mp4', 'http://127.0.0.1:9/v/%ff.mp4', 'https://example.invalid/a%2/b.mp4'])(
    'answers 400 naming source_url for %s',
    async (url) => {
      const res = await dl.post<{ error: { code: string; message: string } }>('/videos', {
        collection_id: collection,
        source_url: url,
      });
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe('invalid_argument');
      expect(res.json.error.message).toMatch(/^source_url: .*malformed percent-escape/);
    },
  );

  it('answers 400 naming callback_url, in the multipart json part too', async () => {
    const res = await dl.post<{ error: { code: string; message: string } }>('/videos', {
      collection_id: collection,
      source_url: 'http://127.0.0.1:9/v.mp4',
      callback_url: 'http://127.0.0.1:9/%zz',
    });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/^callback_url: .*malformed percent-escape/);
    const form = new FormData();
    form.append('json', JSON.stringify({ collection_id: collection, callback_url: 'http://127.0.0.1:9/%e0%a4' }));
    form.append('file', new Blob([Buffer.alloc(16)]), 'v.mp4');
    const multipart = await dl.post<{ error: { code: string; message: string } }>('/videos', form);
    expect(multipart.status).toBe(400);
    expect(multipart.json.error.message).toMatch(/^callback_url: .*malformed percent-escape/);
  });

  it('still accepts well-formed escapes and keeps the decoded file name', async () => {
    const res = await dl.post<{ operation: string; resource: string }>('/videos', {
      collection_id: collection,
      source_url: 'http://127.0.0.1:9/v/caf%C3%A9%20clip.mp4',
    });
    expect(res.status).toBe(202);
    const video = await dl.get<{ filename?: string; source?: { filename?: string } }>(`/videos/${res.json.resource}`);
    expect(JSON.stringify(video.json)).toContain('café clip.mp4');
  });
});
