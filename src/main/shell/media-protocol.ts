import { Readable } from 'node:stream';
import { serveLocalMedia } from '../media/media-files';
import type { MediaSource } from '../media/media-source';

export const MEDIA_SCHEME = 'reelsync-media';

/**
 * The `reelsync-media:` protocol: `reelsync-media://file/?path=ABS` (Range, only inside the watched and library
 * folders) and `reelsync-media://keyframe/?bucket=B&blob=keyframes/...` (thumbnails: the disk cache, filled from the library service).
 */
export async function handleMediaRequest(media: MediaSource, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const method = request.method === 'HEAD' ? 'HEAD' : request.method === 'GET' ? 'GET' : null;
  if (!method) return new Response('method not allowed', { status: 405 });
  if (url.host === 'file') {
    const path = url.searchParams.get('path') ?? '';
    const answer = await serveLocalMedia(path, media.rootsFor(path), method, request.headers.get('range') ?? undefined);
    const body = answer.body ? (Readable.toWeb(answer.body) as ReadableStream<Uint8Array>) : (answer.message ?? null);
    return new Response(body, { status: answer.status, headers: answer.headers });
  }
  if (url.host === 'keyframe') {
    const frame = await media.keyframe(url.searchParams.get('bucket') ?? '', url.searchParams.get('blob') ?? '');
    if (!frame.ok) return new Response(frame.message, { status: frame.status });
    return new Response(new Uint8Array(frame.bytes), { status: 200, headers: { 'content-type': frame.contentType } });
  }
  if (url.host === 'poster') {
    const poster = await media.poster(url.searchParams.get('path') ?? '');
    if (!poster.ok) return new Response(poster.message, { status: poster.status });
    return new Response(new Uint8Array(poster.bytes), { status: 200, headers: { 'content-type': 'image/jpeg' } });
  }
  return new Response('unknown media route', { status: 404 });
}
