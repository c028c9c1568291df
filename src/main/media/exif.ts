import type { UploadMeta } from '../store/sync-rows';
import type { CaptureMetadata } from '../../common/media/exif';

export { MetadataReader, captureMetadataFrom, formatCaptureTime, type CaptureMetadata } from '../../common/media/exif';

export function toUploadMeta(m: CaptureMetadata): UploadMeta {
  return {
    ...(m.cameraModel ? { camera_model: m.cameraModel } : {}),
    ...(m.latitude !== undefined && m.longitude !== undefined ? { latitude: m.latitude, longitude: m.longitude } : {}),
    ...(m.datetimeTaken ? { datetime_taken: m.datetimeTaken } : {}),
  };
}
