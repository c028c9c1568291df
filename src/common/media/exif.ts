import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ExifDateTime, ExifTool, exiftoolPath, type Tags } from 'exiftool-vendored';
import type { Logger } from 'pino';
import { describeError } from '../../shared/errors';

export interface CaptureMetadata {
  cameraModel?: string;
  latitude?: number;
  longitude?: number;
  /** Local capture time as yyyy-MM-dd HH:mm:ss. */
  datetimeTaken?: string;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** ExifDateTime -> 'yyyy-MM-dd HH:mm:ss' in the camera's own wall-clock time; undefined for empty (0000:00:00) dates. */
export function formatCaptureTime(value: unknown): string | undefined {
  if (!(value instanceof ExifDateTime)) return undefined;
  const { year, month, day, hour, minute, second } = value;
  if (year < 1900 || month < 1 || day < 1) return undefined;
  return `${pad(year, 4)}-${pad(month)}-${pad(day)} ${pad(hour)}:${pad(minute)}:${pad(second)}`;
}

/** Picks camera model, GPS and capture time out of exiftool's tags (QuickTime keys of phone footage first). */
export function captureMetadataFrom(tags: Tags): CaptureMetadata {
  const out: CaptureMetadata = {};
  const make = typeof tags.Make === 'string' ? tags.Make.trim() : '';
  const model = typeof tags.Model === 'string' ? tags.Model.trim() : '';
  const camera =
    model && make && !model.toLowerCase().startsWith(make.toLowerCase()) ? `${make} ${model}` : model || make;
  if (camera) out.cameraModel = camera.slice(0, 200);
  const lat = Number(tags.GPSLatitude);
  const lon = Number(tags.GPSLongitude);
  if (
    tags.GPSLatitude !== undefined &&
    tags.GPSLongitude !== undefined &&
    Number.isFinite(lat) &&
    Number.isFinite(lon) &&
    Math.abs(lat) <= 90 &&
    Math.abs(lon) <= 180
  ) {
    out.latitude = lat;
    out.longitude = lon;
  }
  const taken =
    formatCaptureTime(tags.CreationDate) ??
    formatCaptureTime(tags.DateTimeOriginal) ??
    formatCaptureTime(tags.CreateDate);
  if (taken) out.datetimeTaken = taken;
  return out;
}

/**
 * How exiftool is started: `REELSYNC_EXIFTOOL` (a path), else exiftool-vendored's own script. Like exiftool-vendored,
 * the script runs through its shebang when /usr/bin/perl exists, else through the `perl` on PATH (Windows runs its .exe).
 */
async function exiftoolCommand(env: NodeJS.ProcessEnv): Promise<{ script: string; file: string; args: string[] }> {
  const script = env.REELSYNC_EXIFTOOL?.trim() || (await exiftoolPath());
  const viaPerl = process.platform !== 'win32' && !existsSync('/usr/bin/perl');
  return { script, file: viaPerl ? 'perl' : script, args: viaPerl ? [script] : [] };
}

/**
 * exiftool in `-stay_open` mode outlives its parent: a service killed (SIGKILL, a crash) closes exiftool's stdin, and
 * exiftool keeps waiting for more (tested: still alive seconds after EOF). So perl first forks a watcher that closes its
 * own copies of the pipes and, once a second, looks whether the process that started exiftool is still there; when it
 * is gone it ends exiftool (TERM) and itself. Then perl becomes exiftool (exec, same pid for exiftool-vendored), which
 * the watcher also leaves once exiftool has ended. POSIX only: Windows runs exiftool's own .exe.
 */
const WATCHER = [
  'my ($parent, $me) = (getppid(), $$);',
  'my $alive = sub { kill(0, $_[0]) || $!{EPERM} };',
  'if (!fork()) {',
  '  close STDIN; close STDOUT; close STDERR;',
  '  while (1) { sleep 1; exit 0 unless $alive->($me); if (!$alive->($parent)) { kill "TERM", $me; exit 0 } }',
  '}',
  'exec { $ARGV[0] } @ARGV or exit 127;',
].join(' ');

function spawnTiedToParent(script: string): ChildProcess {
  const perl = existsSync('/usr/bin/perl') ? '/usr/bin/perl' : 'perl';
  return spawn(perl, ['-e', WATCHER, perl, script, '-stay_open', 'True', '-@', '-'], {
    stdio: 'pipe',
    shell: false,
    env: { ...process.env, LANG: 'C' },
  });
}

/**
 * Runs `exiftool -ver` once; resolves with null when it works, else with why not. exiftool-vendored itself cannot be
 * asked: a spawn failure (ENOENT, EACCES) is emitted on its child process before anything listens, which kills the
 * process that started it.
 */
function checkExiftool(file: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(file, [...args, '-ver'], { timeout: 20_000 }, (err, stdout) => {
      if (err) resolve(describeError(err));
      else
        resolve(/^\d+\.\d+/.test(stdout.trim()) ? null : `unexpected answer to -ver: ${stdout.trim().slice(0, 100)}`);
    });
  });
}

/**
 * One shared exiftool process (client or service); ended on stop(). When exiftool cannot run (no perl, a broken
 * install), metadata is skipped with one warning: the videos still upload and index, without camera, GPS and date.
 */
export class MetadataReader {
  private exiftool: Promise<ExifTool | null> | undefined;
  private readonly log: Logger;
  private readonly env: NodeJS.ProcessEnv;
  /** Why exiftool is unavailable, once known. */
  unavailableReason: string | null = null;

  constructor(logger: Logger, env: NodeJS.ProcessEnv = process.env) {
    this.log = logger.child({ module: 'exif' });
    this.env = env;
  }

  async start(): Promise<void> {
    this.exiftool ??= this.launch();
    await this.exiftool;
  }

  private async launch(): Promise<ExifTool | null> {
    let reason: string | null;
    let script = '';
    try {
      const command = await exiftoolCommand(this.env);
      script = command.script;
      reason = await checkExiftool(command.file, command.args);
    } catch (err) {
      reason = describeError(err);
    }
    if (reason !== null) {
      this.unavailableReason = reason;
      this.log.warn({ reason }, 'exiftool is unavailable: capture metadata (camera, GPS, date) will not be read');
      return null;
    }
    return new ExifTool({
      maxProcs: 1,
      taskTimeoutMillis: 20_000,
      exiftoolPath: script,
      ...(process.platform === 'win32' ? {} : { processFactory: () => spawnTiedToParent(script) }),
    });
  }

  async stop(): Promise<void> {
    const tool = this.exiftool;
    this.exiftool = undefined;
    await (await tool)?.end();
  }

  /** Capture metadata of a file; {} when exiftool cannot read it or cannot run (metadata is optional for an upload). */
  async read(path: string): Promise<CaptureMetadata> {
    if (!this.exiftool) throw new Error('metadata reader not started');
    const tool = await this.exiftool;
    if (!tool) return {};
    try {
      return captureMetadataFrom(await tool.read(path));
    } catch (err) {
      this.log.warn({ path, err: describeError(err) }, 'exiftool could not read metadata');
      return {};
    }
  }
}
