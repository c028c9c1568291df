import { lstat, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError, unreachable } from '../../../shared/errors';
import { replacedName } from '../../../shared/replaced-name';
import type { AppSettings } from '../../settings';
import { placeWithoutClobber, safeJoin, sanitizeFileName } from '../filenames';
import { DestinationGrants } from './grants';
import { hiddenComponent, realPathOf, systemFolderProblem } from './system-folders';
import { writeNewFile, type OnExists } from './write-new';

/** The native dialogs of a desktop shell (Electron's dialog module); the web mode has none. */
export interface DestinationChooser {
  /** A save dialog (it asks before replacing an existing file); the chosen path, or null when cancelled. */
  saveFile(o: { title: string; defaultPath: string; extension: string }): Promise<string | null>;
  /** A folder picker; the chosen folder, or null when cancelled. */
  chooseFolder(o: { title: string; defaultPath: string }): Promise<string | null>;
}

export type DestinationPurpose = 'export' | 'clips' | 'downloads';

/** A destination as a channel receives it: a grant id from a dialog, or a path that must lie inside an allowed root. */
export interface Target {
  grant?: string;
  path?: string;
}

export interface DestinationRoot {
  path: string;
  builtin: boolean;
}

/**
 * The one destination policy of every channel that writes a file for the renderer (or whoever holds the web token):
 * exports, clip folders, download folders. A destination is either a one-time grant of a path the user chose in a
 * native dialog run by main, or a path inside an allowed root: the data folder's clips, exports and downloads folders
 * plus the folders configured in Settings (validated, symlinks resolved). Existing files are never overwritten without
 * a fresh grant; exports are written 0644.
 */
export class DestinationPolicy {
  readonly grants = new DestinationGrants();

  constructor(
    private readonly d: {
      dataDir: string;
      builtin: Record<'clips' | 'exports' | 'downloads', string>;
      settings: AppSettings;
      chooser: () => DestinationChooser | undefined;
    },
  ) {}

  hasDialog(): boolean {
    return this.d.chooser() !== undefined;
  }

  /** The allowed roots, real paths; the built-in ones are created (0700) when missing. */
  async roots(): Promise<DestinationRoot[]> {
    const out: DestinationRoot[] = [];
    for (const dir of Object.values(this.d.builtin)) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      out.push({ path: await realPathOf(dir), builtin: true });
    }
    for (const configured of this.configuredRoots()) {
      const real = await this.checkRoot(configured).catch(() => null);
      if (real) out.push({ path: real, builtin: false });
    }
    return out;
  }

  /** Replaces the configured roots; each must be an existing folder that is not a system, hidden or data folder. */
  async setRoots(paths: string[]): Promise<DestinationRoot[]> {
    const reals: string[] = [];
    for (const p of paths) reals.push(await this.checkRoot(p));
    this.d.settings.setDestinationRoots(reals);
    return this.roots();
  }

  /**
   * The folder new clips are saved into when the request names none: the one set in Settings while it still lies
   * inside an allowed root (a root removed in Settings takes it away), else the built-in one.
   */
  clipsDir(): string {
    const set = this.d.settings.clipsDir();
    const roots = [...Object.values(this.d.builtin), ...this.configuredRoots()];
    const inside = (root: string): boolean =>
      set === root || set?.startsWith(root.endsWith(path.sep) ? root : root + path.sep) === true;
    return set && roots.some(inside) ? set : this.d.builtin.clips;
  }

  /** Sets the default clips folder (inside an allowed root, created when missing); null goes back to the built-in one. */
  async setClipsDir(p: string | null): Promise<string> {
    this.d.settings.setClipsDir(p === null ? null : await this.folder({ path: p }));
    return this.clipsDir();
  }

  /** Runs the native dialog for `purpose` and grants what the user chose (once); null when cancelled. */
  async choose(
    purpose: DestinationPurpose,
    suggestedName: string | undefined,
  ): Promise<{ grant: string; path: string } | null> {
    const chooser = this.d.chooser();
    if (!chooser)
      throw new AppError(
        'bad_request',
        'there is no native dialog in web mode: type a path inside one of the allowed folders',
      );
    switch (purpose) {
      case 'export': {
        const name = sanitizeFileName(suggestedName ?? 'reelsync-clips.csv', 'reelsync-clips.csv');
        const chosen = await chooser.saveFile({
          title: 'Export markers',
          defaultPath: path.join(this.d.builtin.exports, name),
          extension: path.extname(name).slice(1),
        });
        return chosen ? { grant: this.grants.issue('file', chosen), path: chosen } : null;
      }
      case 'clips':
      case 'downloads': {
        const chosen = await chooser.chooseFolder({
          title: purpose === 'clips' ? 'Save clips to' : 'Download to',
          defaultPath: purpose === 'clips' ? this.clipsDir() : this.d.builtin.downloads,
        });
        return chosen ? { grant: this.grants.issue('folder', chosen), path: chosen } : null;
      }
      default:
        throw unreachable(purpose);
    }
  }

  /** The folder a clip or download goes to (created when missing); a grant is used up by this call. */
  async folder(target: Target): Promise<string> {
    if (target.grant !== undefined) {
      const granted = this.grants.peek(target.grant, 'folder');
      this.grants.use(target.grant);
      await mkdir(granted, { recursive: true });
      return realPathOf(granted);
    }
    const real = await this.insideRoot(target.path ?? '');
    await mkdir(real, { recursive: true });
    return real;
  }

  /**
   * Writes an export (`extension` without the dot) to the target and returns where it went. A path names its file
   * exactly (sanitised name, the format's extension). `replace` with a grant (the save dialog asked the user)
   * overwrites; with a typed path it never destroys: the existing file (a plain file, never a link) is first moved
   * aside to `<name> (replaced).<ext>` (numbered when taken), so one click loses nothing.
   */
  async writeFile(target: Target, extension: string, content: string, onExists: OnExists): Promise<string> {
    if (target.grant !== undefined) {
      const granted = this.grants.peek(target.grant, 'file');
      const withExt = path.extname(granted).toLowerCase() === `.${extension}` ? granted : `${granted}.${extension}`;
      const written = await writeNewFile(path.dirname(withExt), path.basename(withExt), content, onExists);
      this.grants.use(target.grant);
      return written;
    }
    const file = target.path ?? '';
    const name = path.basename(file);
    if (sanitizeFileName(name) !== name)
      throw new AppError('forbidden', `not a plain file name: ${JSON.stringify(name)}`);
    if (path.extname(name).toLowerCase() !== `.${extension}`)
      throw new AppError('forbidden', `a ${extension.toUpperCase()} export must be named *.${extension}: ${name}`);
    const dir = await this.insideRoot(path.dirname(file));
    await mkdir(dir, { recursive: true });
    if (onExists !== 'replace') return writeNewFile(dir, name, content, onExists);
    const existing = safeJoin(dir, name);
    const info = await lstat(existing).catch(() => null);
    if (info && !info.isFile())
      throw new AppError('file_exists', `${existing} exists and is not a plain file: nothing was written`);
    if (info) await placeWithoutClobber(existing, dir, replacedName(name));
    return writeNewFile(dir, name, content, 'refuse');
  }

  /** `p` with symlinks resolved, when it lies inside an allowed root; `forbidden` otherwise. */
  private async insideRoot(p: string): Promise<string> {
    if (!path.isAbsolute(p) || p.includes('\0'))
      throw new AppError('forbidden', `an absolute path is required: ${JSON.stringify(p)}`);
    const real = await realPathOf(p);
    const roots = await this.roots();
    const root = roots.find(
      (r) => real === r.path || real.startsWith(r.path.endsWith(path.sep) ? r.path : r.path + path.sep),
    );
    if (!root)
      throw new AppError(
        'forbidden',
        `${p} is outside the folders Reelsync may write to (${roots.map((r) => r.path).join(', ')}); add a folder in Settings, or choose one in the desktop app's dialog`,
      );
    const hidden = hiddenComponent(path.relative(root.path, real));
    if (hidden) throw new AppError('forbidden', `${p} goes through the hidden folder ${hidden}`);
    return real;
  }

  private async checkRoot(p: string): Promise<string> {
    if (!path.isAbsolute(p) || p.includes('\0'))
      throw new AppError('forbidden', `an absolute path is required: ${JSON.stringify(p)}`);
    const info = await stat(p).catch(() => null);
    if (!info?.isDirectory()) throw new AppError('forbidden', `not an existing folder: ${p}`);
    const real = await realPathOf(p);
    const problem = systemFolderProblem(real, { dataDir: await realPathOf(this.d.dataDir) });
    if (problem) throw new AppError('forbidden', problem);
    const hidden = hiddenComponent(real);
    if (hidden)
      throw new AppError(
        'forbidden',
        `${real} is inside the hidden folder ${hidden}, where programs keep settings and start-up files`,
      );
    return real;
  }

  /** The folders configured in Settings, as stored (checked when they were set). */
  configuredRoots(): string[] {
    return this.d.settings.destinationRoots();
  }
}
