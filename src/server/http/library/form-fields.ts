import { z } from 'zod';
import { isValidDatetime, UPLOAD_LIMITS } from '../../../shared/api-types';
import type { UploadRequest } from '../../library/ingest';
import { badRequest } from '../envelope';

const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());
const intField = (name: string) =>
  z
    .string()
    .regex(/^-?\d{1,12}$/, `${name} must be an integer`)
    .transform(Number);
const numberField = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d{1,3}(\.\d{1,15})?$/, `${name} must be a number`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be between ${min} and ${max}`);
const boolField = z
  .string()
  .regex(/^(true|false|1|0)$/i, 'retain_original_video must be true or false')
  .transform((v) => v.toLowerCase() === 'true' || v === '1');

export const uploadFieldsSchema = z
  .object({
    folder_id: optional(intField('folder_id')),
    unique_id: optional(z.string().max(200, 'unique_id must be at most 200 characters')),
    callback: optional(
      z
        .string()
        .max(UPLOAD_LIMITS.callbackMaxLength, `callback must be at most ${UPLOAD_LIMITS.callbackMaxLength} characters`)
        .refine((v) => /^https?:\/\/[^\s]+$/i.test(v) && URL.canParse(v), 'callback must be an http or https URL'),
    ),
    datetime_taken: optional(
      z.string().refine(isValidDatetime, 'datetime_taken must be in the format yyyy-MM-dd HH:mm:ss'),
    ),
    camera_model: optional(
      z
        .string()
        .max(
          UPLOAD_LIMITS.cameraModelMaxLength,
          `camera_model must be at most ${UPLOAD_LIMITS.cameraModelMaxLength} characters`,
        ),
    ),
    latitude: optional(numberField('latitude', -90, 90)),
    longitude: optional(numberField('longitude', -180, 180)),
    retain_original_video: optional(boolField),
    video_transcription_prompt: optional(
      z.string().max(2000, 'video_transcription_prompt must be at most 2000 characters'),
    ),
    tags: z
      .array(z.string().trim().min(1, 'tags must not be empty').max(100, 'a tag must be at most 100 characters'))
      .max(UPLOAD_LIMITS.maxTags, `at most ${UPLOAD_LIMITS.maxTags} tags`)
      .default([]),
  })
  .refine(
    (f) => (f.latitude === undefined) === (f.longitude === undefined),
    'latitude and longitude must be given together',
  );

export type UploadFields = z.infer<typeof uploadFieldsSchema>;

const SINGLE = [
  'folder_id',
  'unique_id',
  'callback',
  'datetime_taken',
  'camera_model',
  'latitude',
  'longitude',
  'retain_original_video',
  'video_transcription_prompt',
];

/** Turns raw multipart fields (name -> values) into validated upload fields: tags[N] and repeated `tags` both count. */
export function parseUploadFields(raw: Map<string, string[]>): UploadFields {
  const obj: Record<string, unknown> = {};
  const indexed: [number, string][] = [];
  const repeated: string[] = [];
  for (const [name, values] of raw) {
    const m = /^tags\[(\d{1,3})\]$/.exec(name);
    if (m) {
      for (const v of values) indexed.push([Number(m[1]), v]);
    } else if (name === 'tags' || name === 'tags[]') {
      repeated.push(...values);
    } else if (SINGLE.includes(name)) {
      if (values.length > 1) throw badRequest(`${name} was given more than once`);
      obj[name] = values[0];
    }
  }
  obj.tags = [...indexed.sort((a, b) => a[0] - b[0]).map(([, v]) => v), ...repeated];
  const parsed = uploadFieldsSchema.safeParse(obj);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'invalid upload fields');
  return parsed.data;
}

/** What the upload form (POST /upload and /upload_url alike) asks of the ingest. */
export function uploadRequestOf(form: UploadFields): UploadRequest {
  return {
    folderId: form.folder_id,
    uniqueId: form.unique_id,
    details: {
      datetimeTaken: form.datetime_taken ?? null,
      cameraModel: form.camera_model ?? null,
      latitude: form.latitude ?? null,
      longitude: form.longitude ?? null,
      callback: form.callback ?? null,
      retainOriginal: form.retain_original_video ?? true,
      transcriptionPrompt: form.video_transcription_prompt ?? null,
      tags: [...new Set([...form.tags, 'api'])],
    },
  };
}
