import { realpath } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { mediaTypeOf } from '../../shared/media-types';
import { insideRoots } from './media-files';
import { PosterSprites, type PosterAnswer } from './poster-sprites';
import { isKeyframeAddress, type Keyframe } from './keyframes';

/** What the media routes serve from (the shell's custom protocol, the web mode's /api/media). */
export interface MediaSource {
  /**
   * What `path` may be served from: the watched folders, the library's own folders, the Settings' output and clips
   * folders, and the file itself when the library saved a clip or download exactly there (a folder chosen in a dialog).
   */
  rootsFor(path: string): string[];
  /** A keyframe thumbnail by its storage address. */
  keyframe(bucket: string, blob: string): Promise<Keyframe>;
  /** A local file's thumbnail sprite (poster-sprites.ts), only for files `rootsFor` allows. */
  poster(path: string): Promise<PosterAnswer>;
}

/** The keyframe cache on disk (the library feature's ThumbnailCache), as the media routes use it. */
export interface KeyframeStore {
  get(bucket: string, blob: string): Promise<Keyframe>;
}

/** The library feature's destination policy, as far as the media routes read it. */
export interface SettingsDestinations {
  /** The output folders allowed in Settings. */
  configuredRoots(): string[];
  /** The folder new clips are saved into (the one chosen in Settings, or the built-in one). */
  clipsDir(): string;
}

export interface MediaSourceDeps {
  dataDir: string;
  /** Paths of the watched folders. */
  watchedPaths: () => string[];
  /**
   * Where the library feature saves files as Settings say now (the output folders allowed there, the clips folder
   * chosen there), read on every request so the roots follow the settings; undefined before the app is started.
   */
  destinations: () => SettingsDestinations | undefined;
  /** Whether the library saved a clip or download at exactly this path; false before the app is started. */
  savedFile: (path: string) => boolean;
  /** The on-disk keyframe cache (filled from the library service, works offline for what it holds) once started. */
  thumbnails: () => KeyframeStore | undefined;
}

/**
 * Local media from the watched folders, the library's own clips and downloads, and the folders Settings send clips
 * and exports to; keyframes from the disk cache.
 */
export function mediaSource(d: MediaSourceDeps): MediaSource {
  const posters = new PosterSprites(join(d.dataDir, 'cache', 'posters'));
  const source: MediaSource = {
    rootsFor: (path) => {
      const destinations = d.destinations();
      const chosen = destinations ? [...destinations.configuredRoots(), destinations.clipsDir()] : [];
      const saved = d.savedFile(path) ? [path] : [];
      // proxies/: the search proxies of camera originals a browser cannot play (the player plays those instead).
      return [
        ...d.watchedPaths(),
        join(d.dataDir, 'clips'),
        join(d.dataDir, 'downloads'),
        join(d.dataDir, 'proxies'),
        ...chosen,
        ...saved,
      ];
    },
    async keyframe(bucket, blob) {
      if (!isKeyframeAddress(bucket, blob)) return { ok: false, status: 400, message: 'not a keyframe address' };
      const disk = d.thumbnails();
      if (!disk) return { ok: false, status: 503, message: 'the app is not started' };
      const t = await disk.get(bucket, blob);
      return t.ok
        ? { ok: true, bytes: t.bytes, contentType: t.contentType }
        : { ok: false, status: t.status, message: t.message };
    },
    async poster(path) {
      if (!path || !isAbsolute(path) || path.includes('\0') || !mediaTypeOf(path))
        return { ok: false, status: 400, message: 'an absolute path to a video is required' };
      const real = await realpath(path).catch(() => null);
      if (!real) return { ok: false, status: 404, message: 'no such file' };
      if (!(await insideRoots(real, source.rootsFor(path))))
        return { ok: false, status: 403, message: 'outside the library folders' };
      return posters.get(real);
    },
  };
  return source;
}
