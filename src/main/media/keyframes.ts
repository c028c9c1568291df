import { z } from 'zod';

export type Keyframe =
  { ok: true; bytes: Buffer; contentType: string } | { ok: false; status: number; message: string };

const blobSchema = z.string().regex(/^keyframes\/[A-Za-z0-9_-]+\/[A-Za-z0-9_.-]+\.jpg$/);
const bucketSchema = z.string().regex(/^[a-z0-9-]{1,100}$/);

/** Only keyframes may be fetched through the media routes (never a billable video by a crafted address). */
export function isKeyframeAddress(bucket: string, blob: string): boolean {
  return bucketSchema.safeParse(bucket).success && blobSchema.safeParse(blob).success;
}
