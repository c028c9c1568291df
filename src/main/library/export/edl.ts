import type { ExportItem } from './export-item';
import { convertFrames, sourceRange } from './source-range';
import { oneHour, rateLabel, sameRate, timecode, type Rate } from '../../../shared/timecode';

/** Comment lines of an EDL carry free text: one line, no control characters. */
export function comment(text: string): string {
  return text
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/[^\x20-\x7e\u00a0-\uffff]/g, '')
    .trim()
    .slice(0, 200);
}

/**
 * A CMX3600 reel: at most 8 characters of A-Z, 0-9 and _. Longer or other names keep their first 8 such characters
 * (camera reels such as A001C003 fit whole); the full name is on the event's FROM CLIP NAME and REEL comment lines.
 */
export function edlReel(name: string): string {
  const plain = name
    .toUpperCase()
    .replace(/[^A-Z0-9_]/g, '')
    .slice(0, 8);
  return plain || 'AX';
}

/**
 * CMX3600 EDL at one record rate (`rate`, the project's or the items' most common). Each event's source in/out is the
 * camera original's own timecode (its start timecode plus the range, handles included, clamped to the media) in the
 * original's own counting (";" for drop frame); a source of another rate is converted and says so. Record timecode
 * runs end to end from 01:00:00:00. Sound events (AA/V) only where the media has sound. The original is named on a
 * "* FROM CLIP NAME:" line, its full path on "* SOURCE FILE:".
 */
export function itemsEdl(items: ExportItem[], rate: Rate, title = 'Reelsync clips'): string {
  const out = [
    `TITLE: ${comment(title).toUpperCase() || 'REELSYNC CLIPS'}`,
    `FCM: ${rate.drop ? 'DROP FRAME' : 'NON-DROP FRAME'}`,
    '',
  ];
  let record = oneHour(rate);
  items.forEach((item, i) => {
    const r = sourceRange(item);
    const same = sameRate(r.rate, rate);
    const srcRate = same ? r.rate : rate;
    const srcIn = same ? r.tcIn : convertFrames(r.tcIn, r.rate, rate);
    const length = Math.max(1, same ? r.out - r.in : convertFrames(r.out - r.in, r.rate, rate));
    const reel = edlReel(item.media.reel);
    const hasAudio = item.media.hasAudio ?? item.clip?.has_audio ?? false;
    const event = String(i + 1).padStart(3, '0');
    out.push(
      `${event}  ${reel.padEnd(8)} ${(hasAudio ? 'AA/V' : 'V').padEnd(6)}C        ${timecode(srcIn, srcRate)} ${timecode(srcIn + length, srcRate)} ${timecode(record, rate)} ${timecode(record + length, rate)}`,
    );
    out.push(`* FROM CLIP NAME: ${comment(item.media.name)}`);
    if (reel !== item.media.reel) out.push(`* REEL: ${comment(item.media.reel)}`);
    if (item.media.path) out.push(`* SOURCE FILE: ${comment(item.media.path)}`);
    if (!same) out.push(`* COMMENT: SOURCE ${rateLabel(r.rate)} FPS, TIMECODES CONVERTED TO ${rateLabel(rate)}`);
    if (item.label !== item.media.name) out.push(`* COMMENT: ${comment(item.label)}`);
    if (item.query) out.push(`* COMMENT: QUERY ${comment(item.query)}`);
    if (item.tags.length) out.push(`* COMMENT: TAGS ${comment(item.tags.join(', '))}`);
    if (item.notes) out.push(`* COMMENT: ${comment(item.notes)}`);
    out.push('');
    record += length;
  });
  return `${out.join('\r\n')}\r\n`;
}
