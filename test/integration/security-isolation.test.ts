import { openAsBlob } from 'node:fs';
import { FormData, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_V2_BASE_PATH, DATALAKE_BASE_PATH } from '../../src/shared/api-types';
import { DRAWN_TEXT, fixturePath } from '../fixtures/media';
import { BLOB_BACKENDS } from '../helpers/service';
import { twoAccounts, type OwnedByA, type TwoAccounts } from '../helpers/two-accounts';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface Attempt {
  what: string;
  method: Method;
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** The answer B must get: a refusal status, or a 200 whose content holds nothing of A's. */
  expect: number[];
}

async function send(key: string, a: Attempt): Promise<{ status: number; text: string }> {
  const raw = a.body instanceof FormData || Buffer.isBuffer(a.body);
  const res = await request(a.url, {
    method: a.method,
    headers: {
      authorization: key,
      ...(a.body !== undefined && !raw ? { 'content-type': 'application/json' } : {}),
      ...a.headers,
    },
    body:
      a.body === undefined
        ? undefined
        : a.body instanceof FormData || Buffer.isBuffer(a.body)
          ? a.body
          : JSON.stringify(a.body),
  });
  return { status: res.statusCode, text: await res.body.text() };
}

/** A's view of everything it owns, as JSON text; B's attempts must leave it exactly as it was. */
async function snapshotOfA(t: TwoAccounts): Promise<string> {
  const o = t.owned;
  const { api, dl } = t.a;
  const parts = await Promise.all([
    api.get(`/get_metadata?video_no=${o.videoNo}`),
    api.get(`/get_metadata?video_no=${o.dlVideoId}`),
    api.get(`/get_video_transcription?video_no=${o.videoNo}`),
    api.post('/list_videos', { page: 1, size: 100 }),
    api.get('/folders'),
    dl.get(`/collections/${o.collectionId}`),
    dl.get(`/videos?collection_id=${o.collectionId}`),
    dl.get(`/videos/${o.dlVideoId}`),
    dl.get(`/operations/${o.operationId}`),
    dl.get(`/operations/${o.operationId}/deliveries`),
    dl.get(`/uploads/${o.uploadId}`),
    dl.get(`/streams/${o.streamId}`),
  ]);
  return JSON.stringify(parts.map((p) => ('json' in p ? p.json : p)));
}

describe.each(BLOB_BACKENDS)('account isolation on %s', (backend) => {
  let t: TwoAccounts;
  let o: OwnedByA;
  beforeAll(async () => {
    t = await twoAccounts(backend);
    o = t.owned;
  }, 240_000);
  afterAll(async () => {
    await t?.close();
  });

  it("B, with its own keys, gets nothing of A's from any endpoint of either interface, and changes nothing", async () => {
    const lib = t.service.baseUrl;
    const v2 = `${t.service.origin}${API_V2_BASE_PATH}`;
    const dlb = `${t.service.origin}${DATALAKE_BASE_PATH}`;
    const dlBlobs = [o.blob, o.posterBlob, o.dlVideoBlob, ...(o.keyframeBlob ? [o.keyframeBlob] : [])];
    const beforeA = await snapshotOfA(t);
    const balanceA = (await t.a.dl.get('/usage/balance')).json;
    const multipartInto = async (fields: Record<string, string>): Promise<FormData> => {
      const f = new FormData();
      for (const [k, v] of Object.entries(fields)) f.append(k, v);
      f.append('file', await openAsBlob(fixturePath('hevcMov'), { type: 'video/quicktime' }), 'b.mov');
      return f;
    };
    const dlForm = async (): Promise<FormData> => {
      const f = new FormData();
      f.append('json', JSON.stringify({ collection_id: o.collectionId }));
      f.append('file', await openAsBlob(fixturePath('hevcMov'), { type: 'video/quicktime' }), 'b.mov');
      return f;
    };
    const NF = [404];
    const attemptsA: Attempt[] = [
      { what: 'get_metadata', method: 'GET', url: `${lib}/get_metadata?video_no=${o.videoNo}`, expect: [200] },
      {
        what: 'get_metadata of the datalake video',
        method: 'GET',
        url: `${lib}/get_metadata?video_no=${o.dlVideoId}`,
        expect: [200],
      },
      {
        what: 'transcription',
        method: 'GET',
        url: `${lib}/get_video_transcription?video_no=${o.videoNo}`,
        expect: [200, 404],
      },
      ...['BY_CLIP', 'BY_CAPTION', 'BY_AUDIO'].flatMap((type) => [
        {
          what: `search ${type}`,
          method: 'POST' as const,
          url: `${lib}/search`,
          body: { search_param: DRAWN_TEXT, search_type: type },
          expect: [200],
        },
        {
          what: `search ${type} in A's videos`,
          method: 'POST' as const,
          url: `${lib}/search`,
          body: { search_param: DRAWN_TEXT, search_type: type, video_nos: [o.videoNo, o.dlVideoId] },
          expect: [200],
        },
        {
          what: `search ${type} in A's folder`,
          method: 'POST' as const,
          url: `${lib}/search`,
          body: { search_param: DRAWN_TEXT, search_type: type, folder_id: o.folderId },
          expect: [200, 400, 404],
        },
      ]),
      {
        what: 'search_image',
        method: 'POST',
        url: `${lib}/search_image`,
        body: { search_param: DRAWN_TEXT, video_nos: [o.videoNo] },
        expect: [200, 400],
      },
      {
        what: 'search_audio_transcripts',
        method: 'GET',
        url: `${lib}/search_audio_transcripts?query=harbour`,
        expect: [200],
      },
      ...dlBlobs.flatMap((blob) => [
        {
          what: `download ${blob}`,
          method: 'GET' as const,
          url: `${lib}/download?bucket=${o.bucket}&blob=${encodeURIComponent(blob)}`,
          expect: NF,
        },
        {
          what: `v2 download ${blob}`,
          method: 'GET' as const,
          url: `${v2}/download?bucket=${o.bucket}&blob=${encodeURIComponent(blob)}`,
          expect: NF,
        },
        {
          what: `download ${blob} in B's own bucket`,
          method: 'GET' as const,
          url: `${lib}/download?bucket=${o.bucket.replace(/\d+$/, '2')}&blob=${encodeURIComponent(blob)}`,
          expect: NF,
        },
      ]),
      {
        what: 'download by traversal',
        method: 'GET',
        url: `${lib}/download?bucket=reelsync-2&blob=${encodeURIComponent(`../${o.bucket}/${o.blob}`)}`,
        expect: NF,
      },
      { what: 'POST download', method: 'POST', url: `${lib}/download`, body: { video_no: o.videoNo }, expect: NF },
      {
        what: 'POST download of the datalake video',
        method: 'POST',
        url: `${lib}/download`,
        body: { video_no: o.dlVideoId },
        expect: NF,
      },
      { what: 'list_videos', method: 'POST', url: `${lib}/list_videos`, body: { page: 1, size: 100 }, expect: [200] },
      {
        what: 'list_videos by number',
        method: 'POST',
        url: `${lib}/list_videos`,
        body: { video_no: o.videoNo },
        expect: [200],
      },
      { what: 'list_videos by tag', method: 'POST', url: `${lib}/list_videos`, body: { tag: o.tag }, expect: [200] },
      {
        what: "list_videos in A's folder",
        method: 'POST',
        url: `${lib}/list_videos`,
        body: { folder_id: o.folderId },
        expect: [200, 400, 404],
      },
      {
        what: 'delete_videos',
        method: 'POST',
        url: `${lib}/delete_videos`,
        body: { video_nos: [o.videoNo, o.dlVideoId] },
        expect: [200],
      },
      { what: 'folders', method: 'GET', url: `${lib}/folders`, expect: [200] },
      {
        what: 'rename folder',
        method: 'PATCH',
        url: `${lib}/folders/${o.folderId}`,
        body: { name: 'pwned' },
        expect: [400, 404],
      },
      { what: 'delete folder', method: 'DELETE', url: `${lib}/folders/${o.folderId}`, expect: [400, 404] },
      {
        what: "upload into A's folder",
        method: 'POST',
        url: `${lib}/upload`,
        body: await multipartInto({ folder_id: String(o.folderId) }),
        expect: [400, 404],
      },
    ];
    const attemptsB: Attempt[] = [
      { what: 'collections', method: 'GET', url: `${dlb}/collections`, expect: [200] },
      { what: 'collection', method: 'GET', url: `${dlb}/collections/${o.collectionId}`, expect: NF },
      {
        what: 'videos of A collection',
        method: 'GET',
        url: `${dlb}/videos?collection_id=${o.collectionId}`,
        expect: [200, 404],
      },
      { what: 'videos', method: 'GET', url: `${dlb}/videos`, expect: [200] },
      { what: 'video', method: 'GET', url: `${dlb}/videos/${o.dlVideoId}`, expect: NF },
      { what: 'library video via B', method: 'GET', url: `${dlb}/videos/${o.videoNo}`, expect: NF },
      { what: 'events', method: 'GET', url: `${dlb}/videos/${o.dlVideoId}/events`, expect: NF },
      { what: 'moment', method: 'GET', url: `${dlb}/videos/${o.dlVideoId}/moment?start=0&end=1`, expect: NF },
      { what: 'operation', method: 'GET', url: `${dlb}/operations/${o.operationId}`, expect: NF },
      { what: 'deliveries', method: 'GET', url: `${dlb}/operations/${o.operationId}/deliveries`, expect: NF },
      { what: 'cancel', method: 'POST', url: `${dlb}/operations/${o.slowOperationId}:cancel`, expect: NF },
      { what: 'resumable session', method: 'GET', url: o.uploadUrl, expect: NF },
      {
        what: 'resumable chunk',
        method: 'PUT',
        url: o.uploadUrl,
        body: Buffer.alloc(1024, 9),
        headers: { 'content-type': 'application/octet-stream', 'content-range': 'bytes 1024-2047/4096' },
        expect: NF,
      },
      { what: 'finalize', method: 'POST', url: `${dlb}/videos/${o.uploadId}:finalize`, expect: NF },
      {
        what: 'ingest by URL into A collection',
        method: 'POST',
        url: `${dlb}/videos`,
        body: { collection_id: o.collectionId, source_url: `${t.media.url}/media/hevc.mov` },
        expect: NF,
      },
      {
        what: 'ingest by file into A collection',
        method: 'POST',
        url: `${dlb}/videos`,
        body: await dlForm(),
        expect: NF,
      },
      {
        what: 'resumable into A collection',
        method: 'POST',
        url: `${dlb}/videos?upload=resumable`,
        body: { collection_id: o.collectionId, size: 10 },
        expect: NF,
      },
      { what: 'streams', method: 'GET', url: `${dlb}/streams`, expect: [200] },
      { what: 'stream', method: 'GET', url: `${dlb}/streams/${o.streamId}`, expect: NF },
      { what: 'stream events', method: 'GET', url: `${dlb}/streams/${o.streamId}/events`, expect: NF },
      {
        what: 'stream into A collection',
        method: 'POST',
        url: `${dlb}/streams`,
        body: { collection_id: o.collectionId, source_url: 'http://example.invalid/x.m3u8' },
        expect: NF,
      },
      { what: 'search', method: 'POST', url: `${dlb}/search`, body: { query: 'harbour lights' }, expect: [200] },
      {
        what: 'search in A collection',
        method: 'POST',
        url: `${dlb}/search`,
        body: { query: 'harbour lights', collection_id: o.collectionId },
        expect: [200, 404],
      },
      {
        what: 'search A videos',
        method: 'POST',
        url: `${dlb}/search`,
        body: { query: 'harbour lights', video_ids: [o.dlVideoId, o.videoNo] },
        expect: [200, 404],
      },
      { what: 'delete video', method: 'DELETE', url: `${dlb}/videos/${o.dlVideoId}`, expect: NF },
      { what: 'delete stream', method: 'DELETE', url: `${dlb}/streams/${o.streamId}`, expect: NF },
      { what: 'delete collection', method: 'DELETE', url: `${dlb}/collections/${o.collectionId}`, expect: NF },
      { what: 'balance', method: 'GET', url: `${dlb}/usage/balance`, expect: [200] },
    ];
    const secrets = [
      o.videoNo,
      o.dlVideoId,
      o.videoName,
      'a-harbour-secret',
      'a-dl-secret',
      o.folderName,
      o.tag,
      o.blob,
      o.posterBlob,
      o.dlVideoBlob,
      o.collectionId,
      'a-collection',
      o.operationId,
      o.slowOperationId,
      o.uploadId,
      o.streamId,
      'HARBOUR',
      'harbour lights',
      ...(o.keyframeBlob ? [o.keyframeBlob] : []),
    ];
    const leaks: string[] = [];
    const wrong: string[] = [];
    for (const [key, attempts] of [
      [t.bKeys.library, attemptsA],
      [t.bKeys.datalake, attemptsB],
    ] as const) {
      for (const a of attempts) {
        const res = await send(key, a);
        if (!a.expect.includes(res.status)) wrong.push(`${a.what}: HTTP ${res.status} ${res.text.slice(0, 160)}`);
        // Ids B itself sent may be echoed back in a message; anything else of A's is a leak.
        const sent =
          `${a.url} ${a.body === undefined || a.body instanceof FormData || Buffer.isBuffer(a.body) ? '' : JSON.stringify(a.body)}`.toLowerCase();
        for (const s of secrets)
          if (res.text.toLowerCase().includes(s.toLowerCase()) && !sent.includes(s.toLowerCase()))
            leaks.push(`${a.what}: answer contains ${s}`);
        // Echoed or not, a 200 must not carry A's data records.
        if (res.status === 200 && /"(video_bucket|video_blob)":"reelsync-1/.test(res.text))
          leaks.push(`${a.what}: answer carries A's storage address`);
      }
    }
    expect(leaks).toEqual([]);
    expect(wrong).toEqual([]);
    expect(attemptsA.length + attemptsB.length).toBeGreaterThan(60);

    // Nothing of A's changed, A still gets its own data, and B paid for its own calls only.
    expect((await t.a.dl.get('/usage/balance')).json).toEqual(balanceA);
    expect(await snapshotOfA(t)).toBe(beforeA);
    const slow = (await t.a.dl.get<{ cancelled: boolean; done: boolean }>(`/operations/${o.slowOperationId}`)).json;
    expect(slow).toMatchObject({ cancelled: false, done: false });
    const own = await t.a.api.raw('GET', `/download?bucket=${o.bucket}&blob=${encodeURIComponent(o.blob)}`);
    expect(own.status).toBe(200);
    const session = (await t.a.dl.get<{ offset: number }>(`/uploads/${o.uploadId}`)).json;
    expect(session.offset).toBe(1024);
    const aSearch = await t.a.api.post<unknown[]>('/search', { search_param: DRAWN_TEXT, search_type: 'BY_CLIP' });
    expect(JSON.stringify(aSearch.json.data)).toContain(o.videoNo);
    expect((await t.a.dl.post<{ cancelled: boolean }>(`/operations/${o.slowOperationId}:cancel`)).json.cancelled).toBe(
      true,
    );
  }, 120_000);
});
