/**
 * Where ffmpeg and ffprobe come from: the one place that names them, for the client and the service alike.
 *
 * 1. `REELSYNC_FFMPEG` / `REELSYNC_FFPROBE`: an explicit path, used as is (an editor's own build).
 * 2. Otherwise the preference decides between the system's binary (found on PATH) and the one bundled with the app
 *    (@ffmpeg-installer/<platform>-<arch>, @ffprobe-installer/<platform>-<arch>): a packaged app prefers the bundled
 *    one (macOS, Windows and AppImage users have no ffmpeg on PATH), a development tree or CI the system's (Debian's,
 *    which the test fixtures are checked against). The other one is the fallback.
 *
 * The preference is `REELSYNC_MEDIA_TOOLS=bundled|system`, else `bundled` when this code runs from inside an app.asar
 * (what a packaged Electron app is), else `system`.
 *
 * The bundled Linux binaries are static builds: see bundledToolEnv for the one variable they need.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { unreachable } from '../../shared/errors';

export type MediaTool = 'ffmpeg' | 'ffprobe';
export type ToolPreference = 'bundled' | 'system';
export type ToolSource = 'env' | 'bundled' | 'path' | 'unresolved';

export interface ResolvedTool {
  /** What to spawn: an absolute path, or the bare name when nothing was found (spawn then fails with ENOENT). */
  file: string;
  source: ToolSource;
}

export interface ResolveOptions {
  env: NodeJS.ProcessEnv;
  preference: ToolPreference;
  /** The bundled binary's path, or null when the installer package for this platform is not installed. */
  bundled: string | null;
  platform?: NodeJS.Platform;
}

const ENV_NAMES: Record<MediaTool, string> = { ffmpeg: 'REELSYNC_FFMPEG', ffprobe: 'REELSYNC_FFPROBE' };
const Preference = z.enum(['bundled', 'system']);

function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable `name` in PATH's folders (with `.exe` on Windows), or null. */
export function findOnPath(
  name: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): string | null {
  const binary = platform === 'win32' ? `${name}.exe` : name;
  const path = env.PATH ?? env.Path ?? '';
  for (const folder of path.split(delimiter)) {
    if (folder && isExecutable(join(folder, binary))) return join(folder, binary);
  }
  return null;
}

/** Resolves one tool by the rules above (pure: everything it reads is in `options`). */
export function resolveMediaTool(tool: MediaTool, options: ResolveOptions): ResolvedTool {
  const explicit = options.env[ENV_NAMES[tool]]?.trim();
  if (explicit) {
    if (!isExecutable(explicit)) throw new Error(`${ENV_NAMES[tool]}=${explicit} is not an executable file`);
    return { file: explicit, source: 'env' };
  }
  const onPath = (): ResolvedTool | null => {
    const found = findOnPath(tool, options.env, options.platform);
    return found ? { file: found, source: 'path' } : null;
  };
  const bundled = (): ResolvedTool | null =>
    options.bundled && isExecutable(options.bundled) ? { file: options.bundled, source: 'bundled' } : null;
  switch (options.preference) {
    case 'bundled':
      return bundled() ?? onPath() ?? { file: tool, source: 'unresolved' };
    case 'system':
      return onPath() ?? bundled() ?? { file: tool, source: 'unresolved' };
    default:
      throw unreachable(options.preference);
  }
}

/** A path inside app.asar as the OS sees it: asarUnpack puts the binaries in app.asar.unpacked (spawn bypasses asar). */
export function unpackedPath(file: string): string {
  return file.replace(`${sep}app.asar${sep}`, `${sep}app.asar.unpacked${sep}`);
}

/** This platform's bundled binary, or null when its installer package is absent (another platform, or pruned). */
export function bundledToolPath(
  tool: MediaTool,
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
): string | null {
  const pkg = `@${tool}-installer/${platform}-${arch}`;
  try {
    const manifest = createRequire(import.meta.url).resolve(`${pkg}/package.json`);
    return unpackedPath(join(dirname(manifest), platform === 'win32' ? `${tool}.exe` : tool));
  } catch {
    return null;
  }
}

/** The preference of this process (see the file comment); a bad REELSYNC_MEDIA_TOOLS is an error, not a guess. */
export function toolPreference(
  env: NodeJS.ProcessEnv,
  moduleFile: string = fileURLToPath(import.meta.url),
): ToolPreference {
  const set = env.REELSYNC_MEDIA_TOOLS?.trim();
  if (set) {
    const parsed = Preference.safeParse(set);
    if (!parsed.success) throw new Error(`REELSYNC_MEDIA_TOOLS must be "bundled" or "system", not "${set}"`);
    return parsed.data;
  }
  return moduleFile.includes(`${sep}app.asar${sep}`) ? 'bundled' : 'system';
}

/**
 * Variables a bundled binary needs in the environment of this process (and so of every tool it spawns).
 *
 * The Linux builds link glibc statically, and their libzvbi (teletext) opens an iconv converter whenever the MPEG-TS
 * demuxer starts: the static glibc then reads the system's gconv-modules.cache, whose layout a newer system glibc
 * changed, and the tool dies of SIGSEGV on every .ts/.MTS/.m2ts (the 2023 ffprobe on Debian 12: AVCHD camera
 * originals could not be probed). With GCONV_PATH set glibc skips that cache and reads the plain gconv-modules files,
 * which every version parses. The folder it names (the tool's own) holds no converters, so the system's are found as
 * before; dynamically linked programs (perl, pocketsphinx) read them without the cache too. A GCONV_PATH the user set
 * is kept.
 */
export function bundledToolEnv(
  tool: ResolvedTool,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  if (tool.source !== 'bundled' || platform !== 'linux' || env.GCONV_PATH) return {};
  return { GCONV_PATH: dirname(tool.file) };
}

const resolved = new Map<MediaTool, ResolvedTool>();

/** The tool this process runs, resolved once from process.env. */
export function mediaTool(tool: MediaTool): ResolvedTool {
  let found = resolved.get(tool);
  if (!found) {
    found = resolveMediaTool(tool, {
      env: process.env,
      preference: toolPreference(process.env),
      bundled: bundledToolPath(tool),
    });
    Object.assign(process.env, bundledToolEnv(found, process.env));
    resolved.set(tool, found);
  }
  return found;
}

/** What to spawn for ffmpeg. */
export const ffmpegPath = (): string => mediaTool('ffmpeg').file;
/** What to spawn for ffprobe. */
export const ffprobePath = (): string => mediaTool('ffprobe').file;
