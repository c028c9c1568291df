import { ExifDateTime, ExifTool, type Tags } from 'exiftool-vendored';
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
  const camera = model && make && !model.toLowerCase().startsWith(make.toLowerCase()) ? `${make} ${model}` : model || make;
  if (camera) out.cameraModel = camera.slice(0, 200);
  const lat = Number(tags.GPSLatitude);
  const lon = Number(tags.GPSLongitude);
  if (tags.GPSLatitude !== undefined && tags.GPSLongitude !== undefined && Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180) {
    out.latitude = lat;
    out.longitude = lon;
  }
  const taken = formatCaptureTime(tags.CreationDate) ?? formatCaptureTime(tags.DateTimeOriginal) ?? formatCaptureTime(tags.CreateDate);
  if (taken) out.datetimeTaken = taken;
  return out;
}

/** One shared exiftool process (client or service); ended on stop(). */
export class MetadataReader {
  private exiftool: ExifTool | undefined;
  private readonly log: Logger;

  constructor(logger: Logger) {
    this.log = logger.child({ module: 'exif' });
  }

  async start(): Promise<void> {
    this.exiftool ??= new ExifTool({ maxProcs: 1, taskTimeoutMillis: 20_000 });
  }

  async stop(): Promise<void> {
    const tool = this.exiftool;
    this.exiftool = undefined;
    await tool?.end();
  }

  /** Capture metadata of a file; {} when exiftool cannot read it (metadata is optional for an upload). */
  async read(path: string): Promise<CaptureMetadata> {
    if (!this.exiftool) throw new Error('metadata reader not started');
    try {
      return captureMetadataFrom(await this.exiftool.read(path));
    } catch (err) {
      this.log.warn({ path, err: describeError(err) }, 'exiftool could not read metadata');
      return {};
    }
  }
}
