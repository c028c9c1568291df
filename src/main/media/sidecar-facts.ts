import { z } from 'zod';

/** What a camera's sidecar says about its clip; every field may be missing. */
export const sidecarFactsSchema = z.object({
  /** Which sidecar: Sony's NonRealTimeMeta XML or an XMP file. */
  kind: z.enum(['sony-xml', 'xmp']),
  /** The sidecar file's name (beside the clip). */
  file: z.string(),
  /** Start timecode as the camera wrote it, "HH:MM:SS:FF" (";" before the frames for drop frame). */
  startTimecode: z
    .string()
    .regex(/^\d{2}:\d{2}:\d{2}[:;]\d{2}$/)
    .nullable(),
  /** The timecode's frame rate as "num/den" (30000/1001 for 29.97), when the sidecar says. */
  rate: z
    .string()
    .regex(/^\d+\/\d+$/)
    .nullable(),
  dropFrame: z.boolean().nullable(),
  altTimecode: z.string().nullable(),
  reel: z.string().max(200).nullable(),
  clipName: z.string().max(200).nullable(),
  cameraMake: z.string().max(200).nullable(),
  cameraModel: z.string().max(200).nullable(),
  createdAt: z.string().max(64).nullable(),
});
export type SidecarFacts = z.infer<typeof sidecarFactsSchema>;

/** A camera's rate label ("29.97p", "23.98", "2997Drop", "25") as an exact "num/den". */
export function rateFromLabel(label: string | null): string | null {
  if (!label) return null;
  // XMP writes "2997DropTimecode" and "23976Timecode": digits past the second are the decimals.
  const spelled = label.trim().replace(/^(\d{2})(\d{2,3})(?=\D|$)/, '$1.$2');
  const digits = /^(\d+(?:\.\d+)?)/.exec(spelled)?.[1];
  // "59.94i" is fields: the frame rate is half.
  const fps = Number(digits) / (/^\d+(?:\.\d+)?i$/i.test(spelled) && Number(digits) >= 48 ? 2 : 1);
  if (!Number.isFinite(fps) || fps <= 0 || fps > 300) return null;
  const whole = Math.round(fps);
  if (Math.abs(fps - whole) < 0.005) return `${whole}/1`;
  if (Math.abs(fps - (whole * 1000) / 1001) < 0.02) return `${whole * 1000}/1001`;
  return null;
}

/** "HH:MM:SS:FF" from any camera spelling ("1:00:00:00", "01:00:00.00", "01:00:00;00"), or null. */
export function normalTimecode(text: string | null, dropFrame: boolean | null): string | null {
  const m = /^(\d{1,2}):(\d{2}):(\d{2})([:;.,])(\d{2})$/.exec(text?.trim() ?? '');
  if (!m) return null;
  const drop = dropFrame ?? (m[4] === ';' || m[4] === '.' || m[4] === ',');
  return `${m[1]?.padStart(2, '0')}:${m[2]}:${m[3]}${drop ? ';' : ':'}${m[5]}`;
}
