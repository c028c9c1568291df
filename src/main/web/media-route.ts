import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ReelsyncApp } from '../app';
import { serveLocalMedia } from '../media/media-files';

/**
 * Media for the web mode (the mirror of the shell's custom protocol), already token-checked by the caller:
 * GET /api/media/file?path=ABS   a local original or library copy, with Range, only inside the allowed folders;
 * GET /api/media/keyframe?bucket=B&blob=keyframes/...   a keyframe thumbnail from the library service;
 * GET /api/media/poster?path=ABS   a local file's thumbnail sprite, only inside the allowed folders.
 */
export async function handleMedia(
  app: ReelsyncApp,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const method = req.method === 'HEAD' ? 'HEAD' : req.method === 'GET' ? 'GET' : null;
  if (!method) {
    res.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  if (url.pathname === '/api/media/file') {
    const path = url.searchParams.get('path') ?? '';
    const answer = await serveLocalMedia(path, app.media.rootsFor(path), method, req.headers.range);
    res.writeHead(answer.status, answer.headers);
    if (answer.body) {
      answer.body.on('error', () => res.destroy());
      answer.body.pipe(res);
    } else res.end(answer.message ?? '');
    return;
  }
  if (url.pathname === '/api/media/keyframe') {
    const frame = await app.media.keyframe(url.searchParams.get('bucket') ?? '', url.searchParams.get('blob') ?? '');
    if (!frame.ok) {
      res.writeHead(frame.status, { 'content-type': 'text/plain; charset=utf-8' }).end(frame.message);
      return;
    }
    res.writeHead(200, {
      'content-type': frame.contentType,
      'content-length': String(frame.bytes.length),
      'cache-control': 'private, max-age=3600',
    });
    res.end(method === 'HEAD' ? undefined : frame.bytes);
    return;
  }
  if (url.pathname === '/api/media/poster') {
    const poster = await app.media.poster(url.searchParams.get('path') ?? '');
    if (!poster.ok) {
      res.writeHead(poster.status, { 'content-type': 'text/plain; charset=utf-8' }).end(poster.message);
      return;
    }
    res.writeHead(200, {
      'content-type': 'image/jpeg',
      'content-length': String(poster.bytes.length),
      'cache-control': 'private, max-age=3600',
    });
    res.end(method === 'HEAD' ? undefined : poster.bytes);
    return;
  }
  res.writeHead(404, { 'content-type': 'text/plain' }).end('no such media route');
}
