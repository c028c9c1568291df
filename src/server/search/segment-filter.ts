import { Where } from '../storage/where';
import { boundingBox } from './geo';
import type { SegmentFilter } from './segment-types';

/** The filter as SQL over `videos v`, the same on both engines: a "near" filter as a bounding box (exact distance in scoring). */
export function filterOf(filter: SegmentFilter): Where {
  const where = new Where('v.account_id = ?', filter.accountId)
    .add("v.status = 'PARSE'")
    .addIf(filter.folderId, 'v.folder_id = ?', filter.folderId ?? null)
    .addIf(filter.tag, 'EXISTS (SELECT 1 FROM video_tags t WHERE t.video_id = v.id AND t.tag = ?)', filter.tag ?? null)
    .addIf(filter.cameraModel, 'v.camera_model = ?', filter.cameraModel ?? null)
    .addIf(filter.takenSince, 'v.datetime_taken >= ?', filter.takenSince ?? null);
  if (filter.videoNos?.length)
    where.add(`v.video_no IN (${filter.videoNos.map(() => '?').join(',')})`, ...filter.videoNos);
  if (filter.near) {
    const box = boundingBox(filter.near);
    where.add('v.latitude BETWEEN ? AND ? AND v.longitude BETWEEN ? AND ?', ...box.latitude, ...box.longitude);
  }
  return where;
}

/**
 * The videos of `v` an unfiltered search leaves out: being indexed again, or failed. Both engines list these instead
 * of joining every candidate to its video (SQLite's unsearchableRows, PostgreSQL's scopeOf).
 */
export const UNSEARCHABLE_VIDEOS = "v.status IN ('UNPARSE', 'FAIL')";

/** Whether a search keeps every searchable segment of its account: no folder, tag, camera, date, video or place. */
export function onlyStatusFilter(filter: SegmentFilter): boolean {
  return (
    filter.folderId === undefined &&
    filter.videoNos === undefined &&
    filter.tag === undefined &&
    filter.cameraModel === undefined &&
    filter.takenSince === undefined &&
    filter.near === undefined
  );
}
