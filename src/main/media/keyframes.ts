import { request } from 'undici';
import { z } from 'zod';

export interface KeyframeSource {
  baseUrl: string;
  key: string;
}

export type Keyframe =
  { ok: true; bytes: Buffer; contentType: string } | { ok: false; status: number; message: string };

const blobSchema = z.string().regex(/^keyframes\/[A-Za-z0-9_-]+\/[A-Za-z0-9_.-]+\.jpg$/);
const bucketSchema = z.string().regex(/^[a-z0-9-]{1,100}$/);

/** Only keyframes may be fetched through the media routes (never a billable video by a crafted address). */
export function isKeyframeAddress(bucket: string, blob: string): boolean {
  return bucketSchema.safeParse(bucket).success && blobSchema.safeParse(blob).success;
}

/**
 * Keyframe thumbnails fetched from the library service's download endpoint (keyframes only: the blob must be a
 * keyframe path), kept in a small in-memory LRU so a results grid that re-renders does not download (and pay) twice.
 */
export class KeyframeCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;

  constructor(
    private readonly source: () => KeyframeSource | null,
    private readonly maxBytes = 32 * 1024 * 1024,
  ) {}

  async get(bucket: string, blob: string): Promise<Keyframe> {
    if (!isKeyframeAddress(bucket, blob)) return { ok: false, status: 400, message: 'not a keyframe address' };
    const id = `${bucket}/${blob}`;
    const cached = this.entries.get(id);
    if (cached) {
      this.entries.delete(id);
      this.entries.set(id, cached);
      return { ok: true, bytes: cached, contentType: 'image/jpeg' };
    }
    const src = this.source();
    if (!src) return { ok: false, status: 503, message: 'no library service is connected' };
    const url = `${src.baseUrl.replace(/\/+$/, '')}/download?bucket=${encodeURIComponent(bucket)}&blob=${encodeURIComponent(blob)}`;
    const res = await request(url, { headers: { authorization: src.key }, signal: AbortSignal.timeout(15_000) });
    const body = Buffer.from(await res.body.arrayBuffer());
    const type = String(res.headers['content-type'] ?? '');
    if (res.statusCode !== 200 || !type.startsWith('image/'))
      return {
        ok: false,
        status: res.statusCode === 200 ? 502 : res.statusCode,
        message: body.toString('utf8').slice(0, 300),
      };
    this.entries.set(id, body);
    this.bytes += body.length;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= v.length;
    }
    return { ok: true, bytes: body, contentType: 'image/jpeg' };
  }
}
