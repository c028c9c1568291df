import type { ExportItem, ExportMedia } from './export-item';
import { listSize } from './list-rate';
import { convertFrames, sourceRange } from './source-range';
import { frameDuration, rationalTime, type Rate } from '../../../shared/timecode';
import { mediaUrl, xml } from './xml-text';

interface Format {
  id: string;
  rate: Rate;
}

/**
 * FCPXML 1.9: one asset per original (or clip file), its `src` the file's URL, its `start` the original's start
 * timecode and its duration the whole media; one asset-clip per item laid end to end in a project whose sequence has
 * the project's format. An asset-clip's `start` is the event's source in (start timecode + range, handles included)
 * and its length the same event every other format writes, so it never runs past its asset. A marker marks the hit;
 * a keyword carries the tags. Asset times are whole frames of the asset's own rate, spine times of the sequence's.
 */
export function itemsFcpxml(items: ExportItem[], rate: Rate, title = 'Reelsync clips'): string {
  const formats = new Map<string, Format>();
  const assets = new Map<string, { id: string; media: ExportMedia; frames: number }>();
  const resources: string[] = [];
  let nextId = 1;
  const formatFor = (r: Rate, width: number, height: number): Format => {
    const key = `${r.num}/${r.den}/${width}x${height}`;
    let f = formats.get(key);
    if (!f) {
      f = { id: `r${nextId++}`, rate: r };
      formats.set(key, f);
      resources.push(
        `    <format id="${f.id}" frameDuration="${frameDuration(r)}" width="${width}" height="${height}"/>`,
      );
    }
    return f;
  };
  const size = listSize(items.map((i) => ({ width: i.media.width, height: i.media.height })));
  const seqFormat = formatFor(rate, size.width, size.height);
  const ranges = items.map((item) => sourceRange(item));
  // Assets first (an asset's duration covers every event that uses it when its length is unknown).
  items.forEach((item, i) => {
    const key = item.media.path ?? `name:${item.media.name}`;
    const frames = ranges[i]?.mediaFrames ?? ranges[i]?.out ?? 1;
    const seen = assets.get(key);
    if (seen) seen.frames = Math.max(seen.frames, frames);
    else assets.set(key, { id: '', media: item.media, frames });
  });
  for (const asset of assets.values()) {
    const m = asset.media;
    const f = formatFor(m.rate, m.width ?? size.width, m.height ?? size.height);
    asset.id = `r${nextId++}`;
    resources.push(
      `    <asset id="${asset.id}" name="${xml(m.name)}" start="${rationalTime(m.startFrame, m.rate)}" duration="${rationalTime(asset.frames, m.rate)}" hasVideo="1"${m.hasAudio ? ' hasAudio="1"' : ''} format="${f.id}">`,
      `      <media-rep kind="original-media" src="${xml(mediaUrl(m))}"/>`,
      '    </asset>',
    );
  }
  const spine: string[] = [];
  let seqOffset = 0;
  items.forEach((item, i) => {
    const r = ranges[i];
    const asset = assets.get(item.media.path ?? `name:${item.media.name}`);
    if (!r || !asset) return;
    const m = item.media;
    const f = formatFor(m.rate, m.width ?? size.width, m.height ?? size.height);
    const frames = r.out - r.in;
    const seqFrames = Math.max(1, convertFrames(frames, m.rate, rate));
    const seqDuration = rationalTime(seqFrames, rate);
    const label = item.query
      ? `${item.query} (${item.videoName || item.videoNo} ${item.start.toFixed(2)}-${item.end.toFixed(2)}s)`
      : `${item.videoName || item.videoNo} ${item.start.toFixed(2)}-${item.end.toFixed(2)}s`;
    spine.push(
      `            <asset-clip ref="${asset.id}" offset="${rationalTime(seqOffset, rate)}" name="${xml(item.label)}" start="${rationalTime(r.tcIn, m.rate)}" duration="${seqDuration}" format="${f.id}" tcFormat="${m.rate.drop ? 'DF' : 'NDF'}">`,
    );
    if (item.notes) spine.push(`              <note>${xml(item.notes)}</note>`);
    spine.push(
      `              <marker start="${rationalTime(m.startFrame + r.hitIn, m.rate)}" duration="${frameDuration(m.rate)}" value="${xml(label)}"${item.text ? ` note="${xml(item.text.slice(0, 500))}"` : ''}/>`,
    );
    if (item.tags.length)
      spine.push(
        `              <keyword start="${rationalTime(r.tcIn, m.rate)}" duration="${rationalTime(frames, m.rate)}" value="${xml(item.tags.join(', '))}"/>`,
      );
    spine.push('            </asset-clip>');
    seqOffset += seqFrames;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE fcpxml>',
    '<fcpxml version="1.9">',
    '  <resources>',
    ...resources,
    '  </resources>',
    '  <library>',
    `    <event name="${xml(title)}">`,
    `      <project name="${xml(title)}">`,
    `        <sequence format="${seqFormat.id}" duration="${rationalTime(seqOffset, rate)}" tcStart="0s" tcFormat="${rate.drop ? 'DF' : 'NDF'}">`,
    '          <spine>',
    ...spine,
    '          </spine>',
    '        </sequence>',
    '      </project>',
    '    </event>',
    '  </library>',
    '</fcpxml>',
    '',
  ].join('\n');
}
