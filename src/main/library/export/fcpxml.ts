import { pathToFileURL } from 'node:url';
import { basename } from 'node:path';
import type { ClipRow } from '../../store/clips-store';
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
 * FCPXML 1.9: one asset per clip file (ready clips only), laid end to end in one project; each asset-clip carries a
 * marker at the hit's start (the clip file begins `handles` earlier) named after the query, a keyword with the tags and
 * a note. Times are whole frames of each clip's own rate.
 */
export function clipsFcpxml(clips: ClipRow[], title = 'Reelsync clips'): string {
  const ready = clips.filter((c): c is ClipRow & { path: string } => c.state === 'ready' && c.path !== null);
  const formats = new Map<string, { id: string; rate: Rate; width: number; height: number }>();
  const resources: string[] = [];
  let nextId = 1;
  const formatOf = (c: ClipRow): { id: string; rate: Rate } => {
    const rate = rateOf(c.fps);
    const key = `${rate.num}/${rate.den}/${c.width ?? 0}x${c.height ?? 0}`;
    let f = formats.get(key);
    if (!f) {
      f = { id: `r${nextId++}`, rate, width: c.width ?? 1920, height: c.height ?? 1080 };
      formats.set(key, f);
      resources.push(`    <format id="${f.id}" frameDuration="${frameDuration(rate)}" width="${f.width}" height="${f.height}"/>`);
    }
    return f;
  };
  const seqFormat = ready[0] ? formatOf(ready[0]) : null;
  const spine: string[] = [];
  let offsetSeconds = 0;
  for (const c of ready) {
    const f = formatOf(c);
    const assetId = `r${nextId++}`;
    const frames = Math.max(1, framesOf(c.duration_s ?? c.end_s - c.start_s, f.rate));
    const duration = rationalTime(frames, f.rate);
    const name = xml(basename(c.path));
    resources.push(
      `    <asset id="${assetId}" name="${name}" start="0s" duration="${duration}" hasVideo="1" hasAudio="1" format="${f.id}">`,
      `      <media-rep kind="original-media" src="${xml(pathToFileURL(c.path).href)}"/>`,
      '    </asset>',
    );
    const seq = seqFormat?.rate ?? f.rate;
    const offset = rationalTime(framesOf(offsetSeconds, seq), seq);
    const from = Math.max(0, c.start_s - c.handles_s);
    const markerAt = rationalTime(Math.min(frames - 1, framesOf(c.start_s - from, f.rate)), f.rate);
    const label = c.query ? `${c.query} (${c.video_name || c.video_no} ${c.start_s.toFixed(2)}-${c.end_s.toFixed(2)}s)` : `${c.video_name || c.video_no} ${c.start_s.toFixed(2)}-${c.end_s.toFixed(2)}s`;
    spine.push(`          <asset-clip ref="${assetId}" offset="${offset}" name="${name}" start="0s" duration="${duration}" format="${f.id}">`);
    if (c.notes) spine.push(`            <note>${xml(c.notes)}</note>`);
    spine.push(`            <marker start="${markerAt}" duration="${frameDuration(f.rate)}" value="${xml(label)}"${c.text ? ` note="${xml(c.text.slice(0, 500))}"` : ''}/>`);
    if (c.tags.length) spine.push(`            <keyword start="0s" duration="${duration}" value="${xml(c.tags.join(', '))}"/>`);
    spine.push('          </asset-clip>');
    offsetSeconds += frames * (f.rate.den / f.rate.num);
  }
  const total = seqFormat ? rationalTime(framesOf(offsetSeconds, seqFormat.rate), seqFormat.rate) : '0s';
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
    `        <sequence${seqFormat ? ` format="${seqFormat.id}"` : ''} duration="${total}" tcStart="0s" tcFormat="NDF">`,
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
