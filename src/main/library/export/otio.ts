import type { ExportItem } from './export-item';
import { sourceRange } from './source-range';
import { oneHour, type Rate } from '../../../shared/timecode';
import { mediaUrl } from './xml-text';

const fps = (rate: Rate): number => rate.num / rate.den;
const time = (value: number, rate: Rate): object => ({ OTIO_SCHEMA: 'RationalTime.1', rate: fps(rate), value });
const range = (start: number, duration: number, rate: Rate): object => ({
  OTIO_SCHEMA: 'TimeRange.1',
  start_time: time(start, rate),
  duration: time(duration, rate),
});

/**
 * OpenTimelineIO JSON (`.otio`): a Timeline.1 whose one video track holds a Clip.2 per item. A clip's source_range is
 * the event (the original's start timecode + range, handles included) in frames of the original's rate; its
 * ExternalReference.1 points at the original's file URL with the original's whole timecode span as available_range,
 * so an NLE importing it relinks the camera original at its own timecode. A marker marks the hit.
 */
export function itemsOtio(items: ExportItem[], rate: Rate, title = 'Reelsync clips'): string {
  const clips = items.map((item) => {
    const r = sourceRange(item);
    const m = item.media;
    return {
      OTIO_SCHEMA: 'Clip.2',
      name: item.label,
      metadata: {
        reelsync: {
          video_no: item.videoNo,
          video_name: item.videoName,
          reel: m.reel,
          clip_name: m.clipName,
          query: item.query,
          text: item.text,
          score: item.score,
          tags: item.tags,
          notes: item.notes,
          handles_seconds: item.handles,
          media: m.kind,
        },
      },
      source_range: range(r.tcIn, r.out - r.in, m.rate),
      effects: [],
      markers: [
        {
          OTIO_SCHEMA: 'Marker.2',
          name: item.query || item.label,
          metadata: {},
          marked_range: range(m.startFrame + r.hitIn, r.hitOut - r.hitIn, m.rate),
          color: 'RED',
          comment: item.text.slice(0, 500),
        },
      ],
      enabled: true,
      media_references: {
        DEFAULT_MEDIA: {
          OTIO_SCHEMA: 'ExternalReference.1',
          name: m.name,
          metadata: {},
          available_range: range(m.startFrame, r.mediaFrames ?? r.out, m.rate),
          available_image_bounds: null,
          target_url: mediaUrl(m),
        },
      },
      active_media_reference_key: 'DEFAULT_MEDIA',
    };
  });
  const composable = { metadata: {}, source_range: null, effects: [], markers: [], enabled: true };
  const timeline = {
    OTIO_SCHEMA: 'Timeline.1',
    metadata: {},
    name: title,
    global_start_time: time(oneHour(rate), rate),
    tracks: {
      OTIO_SCHEMA: 'Stack.1',
      name: 'tracks',
      ...composable,
      children: [{ OTIO_SCHEMA: 'Track.1', name: 'V1', kind: 'Video', ...composable, children: clips }],
    },
  };
  return `${JSON.stringify(timeline, null, 2)}\n`;
}
