import { AppError } from '../../shared/errors';
import { libraryCall } from '../api/app-errors';
import { existsSync } from 'node:fs';
import type { DesktopAccess } from '../desktop/hooks';
import type { HandlerMap } from '../ipc/registry';
import { EXPORT_EXTENSIONS } from '../../shared/contract/clips';
import { clipView } from './clips-service';
import { downloadView } from './download-manager';
import type { LibraryFeature } from './feature';

/** A folder the request names (a path inside an allowed root, or a dialog's grant), checked; undefined: the default. */
async function chosenFolder(l: LibraryFeature, path?: string, grant?: string): Promise<string | undefined> {
  return path !== undefined || grant !== undefined ? l.destinations.folder({ path, grant }) : undefined;
}

/**
 * The clips/downloads/destinations/offline channels. Everything reading the client database (clips, cached
 * thumbnails, the download list) works with the service down; quote/start need it and answer `offline` without.
 */
export function libraryHandlers(lib: () => LibraryFeature, desktop: DesktopAccess) {
  const clipFile = (id: number): { file: string; thumb: string | null } => {
    const clip = lib().clips.get(id);
    if (clip.state !== 'ready' || !clip.path)
      throw new AppError('conflict', `clip ${id} is ${clip.state}: there is no file yet`);
    if (!existsSync(clip.path)) throw new AppError('not_found', `the clip file is gone: ${clip.path}`);
    return { file: clip.path, thumb: clip.thumbnail_path };
  };
  const roots = async (l: LibraryFeature) => ({
    roots: await l.destinations.roots(),
    dialog: l.destinations.hasDialog(),
    clipsDir: l.destinations.clipsDir(),
  });
  return {
    'clips:save': async ({ outDir, outDirGrant, ...req }) => {
      const l = lib();
      const dir = await chosenFolder(l, outDir, outDirGrant);
      return clipView(l.clips.save({ ...req, outDir: dir }));
    },
    'clips:get': ({ id }) => clipView(lib().clips.get(id)),
    'clips:list': ({ page, size, tag, videoNo }) => {
      const { rows, total } = lib().clips.list(page, size, { tag, videoNo });
      return { clips: rows.map(clipView), total };
    },
    'clips:search': ({ text, limit, offset }) => ({ clips: lib().clips.search(text, limit, offset).map(clipView) }),
    'clips:update': ({ id, name, tags, notes }) => clipView(lib().clips.update(id, { name, tags, notes })),
    'clips:delete': async ({ id, deleteFile }) => ({ deleted: await lib().clips.delete(id, deleteFile) }),
    'clips:thumbnail': async ({ id }) => ({ dataUrl: await lib().clips.thumbnail(id) }),
    'clips:export': async ({ format, frameRate, ids, file, fileGrant, onExists }) => {
      const l = lib();
      const { content, count } = await l.clips.render(format, ids, frameRate);
      const written =
        file !== undefined || fileGrant !== undefined
          ? await l.destinations.writeFile(
              { path: file, grant: fileGrant },
              EXPORT_EXTENSIONS[format],
              content,
              onExists,
            )
          : null;
      return { content, file: written, count };
    },
    'clips:drag-out': ({ id }) => {
      const { file, thumb } = clipFile(id);
      return desktop.drag(file, thumb);
    },
    'clips:reveal': ({ id }) => desktop.reveal(clipFile(id).file),
    'downloads:list': ({ states, limit }) => ({ downloads: lib().downloads.list(limit, states).map(downloadView) }),
    'downloads:quote': async ({ bucket, blob, videoNo }) =>
      libraryCall(() => lib().downloads.quote(bucket, blob, videoNo)),
    'downloads:start': async ({ destDir, destDirGrant, ...req }) => {
      const l = lib();
      const dir = await chosenFolder(l, destDir, destDirGrant);
      l.requireClient();
      const quote = await libraryCall(() => l.downloads.quote(req.bucket, req.blob, req.videoNo));
      return downloadView(await l.downloads.start({ ...req, destDir: dir, quote }));
    },
    'downloads:cancel': async ({ id }) => ({ cancelled: await lib().downloads.cancel(id) }),
    'downloads:retry': ({ id }) => downloadView(lib().downloads.retry(id)),
    'destinations:roots': () => roots(lib()),
    'destinations:set-roots': async ({ paths }) => {
      const l = lib();
      await l.destinations.setRoots(paths);
      return roots(l);
    },
    'destinations:set-clips-dir': async ({ path }) => {
      const l = lib();
      await l.destinations.setClipsDir(path);
      return roots(l);
    },
    'destinations:choose': async ({ purpose, suggestedName }) => ({
      chosen: await lib().destinations.choose(purpose, suggestedName),
    }),
    'library:connectivity': async () => {
      const l = lib();
      if (!l.connectivity)
        return { configured: false, online: false, checkedAt: null, error: 'no library service is configured' };
      const s = await l.connectivity.check();
      return { configured: true, ...s };
    },
  } satisfies HandlerMap;
}
