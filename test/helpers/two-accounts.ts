import { openAsBlob } from 'node:fs';
import { FormData } from 'undici';
import { DRAWN_TEXT, fixturePath } from '../fixtures/media';
import { apiClient, waitForStatus, type ApiClient } from './api';
import {
  datalakeClient,
  startMediaServer,
  startWebhookReceiver,
  waitForOperation,
  type DatalakeClient,
  type LocalServer,
} from './datalake';
import { startService, type BlobBackend, type TestService } from './service';

/** Everything account A owns, by id, across both interfaces. */
export interface OwnedByA {
  folderId: number;
  folderName: string;
  tag: string;
  videoNo: string;
  videoName: string;
  bucket: string;
  blob: string;
  posterBlob: string;
  keyframeBlob: string | null;
  collectionId: string;
  dlVideoId: string;
  dlVideoBlob: string;
  operationId: string;
  slowOperationId: string;
  uploadId: string;
  uploadUrl: string;
  streamId: string;
}

export interface TwoAccounts {
  service: TestService;
  media: LocalServer;
  receiver: LocalServer;
  a: { api: ApiClient; dl: DatalakeClient };
  b: { api: ApiClient; dl: DatalakeClient };
  /** B's raw keys, for hand-made requests. */
  bKeys: { library: string; datalake: string };
  owned: OwnedByA;
  close(): Promise<void>;
}

interface Meta {
  status: string;
  video_name: string;
  video_bucket: string;
  video_blob: string;
  poster_blob: string;
}

/** A service with accounts A ("test") and B ("intruder"), both keys each; A owns indexed videos in both interfaces. */
export async function twoAccounts(backend: BlobBackend = 'local'): Promise<TwoAccounts> {
  const media = await startMediaServer();
  const receiver = await startWebhookReceiver(() => 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
  const service = await startService({
    backend,
    config: { indexer: { concurrency: 2 }, limits: { searchPerSecond: 1000 } },
  });
  const a = {
    api: apiClient(service.baseUrl, service.key),
    dl: datalakeClient(service.origin, service.createKey('test', { kind: 'datalake' })),
  };
  const bKeys = {
    library: service.createKey('intruder', { credits: 50 }),
    datalake: service.createKey('intruder', { kind: 'datalake' }),
  };
  const b = { api: apiClient(service.baseUrl, bKeys.library), dl: datalakeClient(service.origin, bKeys.datalake) };
  const folderName = 'a-private-folder';
  const tag = 'a-secret-tag';
  const folderId =
    (await a.api.post<{ folder_id: number }>('/folders', { name: folderName })).json.data?.folder_id ?? 0;
  const up = await a.api.upload<{ videoNo: string }>(
    fixturePath('drawnTextMp4'),
    { folder_id: String(folderId), 'tags[0]': tag },
    { filename: 'a-harbour-secret.mp4' },
  );
  const videoNo = up.json.data?.videoNo ?? '';

  const collectionId = (await a.dl.post<{ collection_id: string }>('/collections', { name: 'a-collection' })).json
    .collection_id;
  const form = new FormData();
  form.append('json', JSON.stringify({ collection_id: collectionId, callback_url: `${receiver.url}/ok` }));
  form.append('file', await openAsBlob(fixturePath('hevcMov'), { type: 'video/quicktime' }), 'a-dl-secret.mov');
  const ingest = (await a.dl.post<{ operation: string; resource: string }>('/videos', form)).json;
  const slow = (
    await a.dl.post<{ operation: string }>('/videos', {
      collection_id: collectionId,
      source_url: `${media.url}/slow.mp4`,
    })
  ).json;
  const session = (
    await a.dl.post<{ video_id: string; upload_url: string }>('/videos?upload=resumable', {
      collection_id: collectionId,
      size: 4096,
      filename: 'a-resumable.mp4',
    })
  ).json;
  await a.dl.call('PUT', session.upload_url, Buffer.alloc(1024, 7), {
    'content-type': 'application/octet-stream',
    'content-range': 'bytes 0-1023/4096',
  });
  const stream = (
    await a.dl.post<{ stream_id: string }>('/streams', {
      collection_id: collectionId,
      source_url: `${media.url}/no-such-live.m3u8`,
    })
  ).json;

  const meta = (await waitForStatus(a.api, videoNo, 120_000)) as unknown as Meta;
  if (meta.status !== 'PARSE') throw new Error(`A's video did not index: ${JSON.stringify(meta)}`);
  const done = await waitForOperation(a.dl, ingest.operation, 120_000);
  if (done.error) throw new Error(`A's ingest failed: ${JSON.stringify(done.error)}`);
  const dlMeta = (await waitForStatus(a.api, ingest.resource, 5_000)) as unknown as Meta;
  const found = await a.api.post<{ keyframe_blob?: string }[]>('/search', {
    search_param: DRAWN_TEXT,
    search_type: 'BY_CLIP',
  });
  const keyframeBlob = found.json.data?.find((i) => i.keyframe_blob)?.keyframe_blob ?? null;
  for (let i = 0; i < 100; i++) {
    const s = (await a.dl.get<{ status: string }>(`/streams/${stream.stream_id}`)).json;
    if (s.status === 'failed' || s.status === 'ended') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    service,
    media,
    receiver,
    a,
    b,
    bKeys,
    owned: {
      folderId,
      folderName,
      tag,
      videoNo,
      videoName: meta.video_name,
      bucket: meta.video_bucket,
      blob: meta.video_blob,
      posterBlob: meta.poster_blob,
      keyframeBlob,
      collectionId,
      dlVideoId: ingest.resource,
      dlVideoBlob: dlMeta.video_blob,
      operationId: ingest.operation,
      slowOperationId: slow.operation,
      uploadId: session.video_id,
      uploadUrl: session.upload_url,
      streamId: stream.stream_id,
    },
    close: async () => {
      await service.stop();
      await media.close();
      await receiver.close();
    },
  };
}
