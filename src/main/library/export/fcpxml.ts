import { pathToFileURL } from 'node:url';
import { basename } from 'node:path';
import type { ClipRow } from '../clips-store';
import { listSize } from './list-rate';
import { frameDuration, framesOf, rateOf, rationalTime, type Rate } from './timecode';

function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\x20-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * FCPXML 1.9: one asset per clip file (ready clips only), laid end to end in one project whose sequence has the
 * project's format (`rate` and the most common clip size). Each asset keeps its own format and says hasAudio only
 * when its file has sound; each asset-clip carries a marker at the hit's start (the clip file begins `handles`
 * earlier) named after the query, a keyword with the tags and a note. Spine offsets and durations are whole frames
 * of the sequence's rate, asset and marker times whole frames of the clip's own.
 */
export function clipsFcpxml(clips: ClipRow[], rate: Rate, title = 'Reelsync clips'): string {
  const ready = clips.filter((c): c is ClipRow & { path: string } => c.state === 'ready' && c.path !== null);
  const formats = new Map<string, { id: string; rate: Rate }>();
  const resources: string[] = [];
  let nextId = 1;
  const formatFor = (r: Rate, width: number, height: number): { id: string; rate: Rate } => {
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
  const size = listSize(ready);
  const seqFormat = formatFor(rate, size.width, size.height);
  const formatOf = (c: ClipRow): { id: string; rate: Rate } =>
    formatFor(rateOf(c.fps), c.width ?? size.width, c.height ?? size.height);
  const spine: string[] = [];
  let seqOffset = 0;
  for (const c of ready) {
    const f = formatOf(c);
    const assetId = `r${nextId++}`;
    const seconds = c.duration_s ?? c.end_s - c.start_s;
    const frames = Math.max(1, framesOf(seconds, f.rate));
    const duration = rationalTime(frames, f.rate);
    const seqFrames = Math.max(1, framesOf(seconds, rate));
    const seqDuration = rationalTime(seqFrames, rate);
    const name = xml(basename(c.path));
    resources.push(
      `    <asset id="${assetId}" name="${name}" start="0s" duration="${duration}" hasVideo="1"${c.has_audio ? ' hasAudio="1"' : ''} format="${f.id}">`,
      `      <media-rep kind="original-media" src="${xml(pathToFileURL(c.path).href)}"/>`,
      '    </asset>',
    );
    const offset = rationalTime(seqOffset, rate);
    const from = Math.max(0, c.start_s - c.handles_s);
    const markerAt = rationalTime(Math.min(frames - 1, framesOf(c.start_s - from, f.rate)), f.rate);
    const label = c.query
      ? `${c.query} (${c.video_name || c.video_no} ${c.start_s.toFixed(2)}-${c.end_s.toFixed(2)}s)`
      : `${c.video_name || c.video_no} ${c.start_s.toFixed(2)}-${c.end_s.toFixed(2)}s`;
    spine.push(
      `          <asset-clip ref="${assetId}" offset="${offset}" name="${name}" start="0s" duration="${seqDuration}" format="${f.id}">`,
    );
    if (c.notes) spine.push(`            <note>${xml(c.notes)}</note>`);
    spine.push(
      `            <marker start="${markerAt}" duration="${frameDuration(f.rate)}" value="${xml(label)}"${c.text ? ` note="${xml(c.text.slice(0, 500))}"` : ''}/>`,
    );
    if (c.tags.length)
      spine.push(`            <keyword start="0s" duration="${seqDuration}" value="${xml(c.tags.join(', '))}"/>`);
    spine.push('          </asset-clip>');
    seqOffset += seqFrames;
  }
  const total = rationalTime(seqOffset, rate);
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
    `        <sequence format="${seqFormat.id}" duration="${total}" tcStart="0s" tcFormat="${rate.drop ? 'DF' : 'NDF'}">`,
    '          <spine>',
    ...spine.map((l) => l.replace(/^ {10}/, '            ')),
    '          </spine>',
    '        </sequence>',
    '      </project>',
    '    </event>',
    '  </library>',
    '</fcpxml>',
    '',
  ].join('\n');
}
