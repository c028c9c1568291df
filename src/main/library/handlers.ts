import { AppError, unreachable } from '../../shared/errors';
import { ApiError } from '../api/errors';
import type { HandlerRegistry } from '../ipc/registry';
import { clipView } from './clips-service';
import { downloadView } from './download-manager';
import type { LibraryFeature } from './feature';

/** API failures as the contract's error codes (offline, balance, rate limit...), for channels that call the service. */
async function viaService<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    switch (err.reason) {
      case 'network':
      case 'server':
        throw new AppError('offline', err.message, { cause: err });
      case 'insufficient-balance':
        throw new AppError('insufficient_balance', err.message, { cause: err });
      case 'rate-limited':
        throw new AppError('rate_limited', err.message, { cause: err });
      case 'unauthorized':
      case 'validation':
      case 'protocol':
        throw new AppError('bad_request', err.message, { cause: err });
      default:
        throw unreachable(err.reason);
    }
  }
}

/**
 * The clips/downloads/offline channels. Everything reading the client database (clips, cached thumbnails, last
 * results, the download list) works with the service down; quote/start/search need it and answer `offline` without.
 */
export function registerLibraryHandlers(r: HandlerRegistry, lib: () => LibraryFeature): void {
  r.handle('clips:save', async ({ outDir, outDirGrant, ...req }) => {
    const l = lib();
    const dir =
      outDir !== undefined || outDirGrant !== undefined
        ? await l.destinations.folder({ path: outDir, grant: outDirGrant })
        : undefined;
    return clipView(l.clips.save({ ...req, outDir: dir }));
  });
  r.handle('clips:get', ({ id }) => clipView(lib().clips.get(id)));
  r.handle('clips:list', ({ page, size, tag, videoNo }) => {
    const { rows, total } = lib().clips.list(page, size, { tag, videoNo });
    return { clips: rows.map(clipView), total };
  });
  r.handle('clips:search', ({ text, limit }) => ({ clips: lib().clips.search(text, limit).map(clipView) }));
  r.handle('clips:update', ({ id, name, tags, notes }) => clipView(lib().clips.update(id, { name, tags, notes })));
  r.handle('clips:delete', async ({ id, deleteFile }) => ({ deleted: await lib().clips.delete(id, deleteFile) }));
  r.handle('clips:thumbnail', async ({ id }) => ({ dataUrl: await lib().clips.thumbnail(id) }));
  r.handle('clips:export', async ({ format, frameRate, ids, file, fileGrant, onExists }) => {
    const l = lib();
    const { content, count } = await l.clips.render(format, ids, frameRate);
    const written =
      file !== undefined || fileGrant !== undefined
        ? await l.destinations.writeFile({ path: file, grant: fileGrant }, format, content, onExists)
        : null;
    return { content, file: written, count };
  });
  r.handle('downloads:list', ({ states, limit }) => ({
    downloads: lib().downloads.list(limit, states).map(downloadView),
  }));
  r.handle('downloads:quote', async ({ bucket, blob, videoNo }) =>
    viaService(() => lib().downloads.quote(bucket, blob, videoNo)),
  );
  r.handle('downloads:start', async ({ destDir, destDirGrant, ...req }) => {
    const l = lib();
    const dir =
      destDir !== undefined || destDirGrant !== undefined
        ? await l.destinations.folder({ path: destDir, grant: destDirGrant })
        : undefined;
    l.requireClient();
    const quote = await viaService(() => l.downloads.quote(req.bucket, req.blob, req.videoNo));
    return downloadView(await l.downloads.start({ ...req, destDir: dir, quote }));
  });
  r.handle('downloads:cancel', async ({ id }) => ({ cancelled: await lib().downloads.cancel(id) }));
  r.handle('downloads:retry', ({ id }) => downloadView(lib().downloads.retry(id)));
  r.handle('search:last-results', () => ({ results: lib().searchCache.last() }));
  r.handle('thumbnails:get', async ({ bucket, blob, cacheOnly }) => {
    const t = await lib().thumbnails.get(bucket, blob, { cacheOnly });
    return t.ok
      ? { dataUrl: `data:${t.contentType};base64,${t.bytes.toString('base64')}`, cached: t.cached }
      : { dataUrl: null, cached: false };
  });
  const roots = async (l: LibraryFeature) => ({
    roots: await l.destinations.roots(),
    dialog: l.destinations.hasDialog(),
    clipsDir: l.destinations.clipsDir(),
  });
  r.handle('destinations:roots', () => roots(lib()));
  r.handle('destinations:set-roots', async ({ paths }) => {
    const l = lib();
    await l.destinations.setRoots(paths);
    return roots(l);
  });
  r.handle('destinations:set-clips-dir', async ({ path }) => {
    const l = lib();
    await l.destinations.setClipsDir(path);
    return roots(l);
  });
  r.handle('destinations:choose', async ({ purpose, suggestedName }) => ({
    chosen: await lib().destinations.choose(purpose, suggestedName),
  }));
  r.handle('library:connectivity', async () => {
    const l = lib();
    if (!l.connectivity)
      return { configured: false, online: false, checkedAt: null, error: 'no library service is configured' };
    const s = await l.connectivity.check();
    return { configured: true, ...s };
  });
}
