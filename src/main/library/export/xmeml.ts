import { pathToFileURL } from 'node:url';
import type { ExportItem, ExportMedia } from './export-item';
import { listSize } from './list-rate';
import { convertFrames, sourceRange } from './source-range';
import { oneHour, timecode, type Rate } from '../../../shared/timecode';
import { xml } from './xml-text';

/** xmeml's <rate>: the integer timebase and whether it runs 1000/1001 slow (NTSC). */
function rateXml(rate: Rate, indent: string): string {
  return `${indent}<rate><timebase>${rate.base}</timebase><ntsc>${rate.den === 1001 ? 'TRUE' : 'FALSE'}</ntsc></rate>`;
}

function timecodeXml(frames: number, rate: Rate, indent: string, reel?: string): string[] {
  return [
    `${indent}<timecode>`,
    rateXml(rate, `${indent}  `),
    `${indent}  <string>${timecode(frames, rate)}</string>`,
    `${indent}  <frame>${frames}</frame>`,
    `${indent}  <displayformat>${rate.drop ? 'DF' : 'NDF'}</displayformat>`,
    ...(reel !== undefined ? [`${indent}  <reel><name>${xml(reel)}</name></reel>`] : []),
    `${indent}</timecode>`,
  ];
}

/** Premiere's pathurl: file://localhost/ and the percent-encoded path; a bare name for media not on this computer. */
function pathUrl(media: ExportMedia): string {
  return media.path ? `file://localhost${pathToFileURL(media.path).pathname}` : encodeURIComponent(media.name);
}

/**
 * Final Cut Pro 7 / Premiere XML (xmeml version 4): one sequence at the project rate, a video track and (for media
 * with sound) an audio track of clipitems laid end to end from 01:00:00:00. Each clipitem's in/out is the event (the
 * same range every export writes) in frames of its file, and its file carries the original's `pathurl`, rate and
 * start timecode (with the reel), so Premiere links the camera original at its own timecode.
 */
export function itemsXmeml(items: ExportItem[], rate: Rate, title = 'Reelsync clips'): string {
  const size = listSize(items.map((i) => ({ width: i.media.width, height: i.media.height })));
  const fileIds = new Map<string, string>();
  const video: string[] = [];
  const audio: string[] = [];
  let record = 0;
  items.forEach((item, i) => {
    const r = sourceRange(item);
    const m = item.media;
    const length = Math.max(1, convertFrames(r.out - r.in, m.rate, rate));
    const key = m.path ?? `name:${m.name}`;
    const known = fileIds.get(key);
    const fileId = known ?? `file-${fileIds.size + 1}`;
    fileIds.set(key, fileId);
    const mediaFrames = r.mediaFrames ?? r.out;
    const file = known
      ? [`          <file id="${fileId}"/>`]
      : [
          `          <file id="${fileId}">`,
          `            <name>${xml(m.name)}</name>`,
          `            <pathurl>${xml(pathUrl(m))}</pathurl>`,
          rateXml(m.rate, '            '),
          `            <duration>${mediaFrames}</duration>`,
          ...timecodeXml(m.startFrame, m.rate, '            ', m.reel),
          '            <media>',
          '              <video><samplecharacteristics>',
          rateXml(m.rate, '                '),
          `                <width>${m.width ?? size.width}</width><height>${m.height ?? size.height}</height>`,
          '              </samplecharacteristics></video>',
          ...(m.hasAudio ? ['              <audio><channelcount>2</channelcount></audio>'] : []),
          '            </media>',
          '          </file>',
        ];
    const clipitem = (id: string, body: string[]): string[] => [
      `        <clipitem id="${id}">`,
      `          <name>${xml(item.label)}</name>`,
      `          <duration>${mediaFrames}</duration>`,
      rateXml(m.rate, '          '),
      `          <start>${record}</start>`,
      `          <end>${record + length}</end>`,
      `          <in>${r.in}</in>`,
      `          <out>${r.out}</out>`,
      ...body,
      '        </clipitem>',
    ];
    const marker = [
      '          <marker>',
      `            <name>${xml(item.query || item.label)}</name>`,
      `            <comment>${xml(item.text.slice(0, 500))}</comment>`,
      `            <in>${r.hitIn}</in>`,
      '            <out>-1</out>',
      '          </marker>',
    ];
    video.push(...clipitem(`clipitem-v${i + 1}`, [...file, ...marker]));
    if (m.hasAudio)
      audio.push(
        ...clipitem(`clipitem-a${i + 1}`, [
          `          <file id="${fileId}"/>`,
          '          <sourcetrack><mediatype>audio</mediatype><trackindex>1</trackindex></sourcetrack>',
        ]),
      );
    record += length;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE xmeml>',
    '<xmeml version="4">',
    '  <sequence id="sequence-1">',
    `    <name>${xml(title)}</name>`,
    `    <duration>${record}</duration>`,
    rateXml(rate, '    '),
    ...timecodeXml(oneHour(rate), rate, '    '),
    '    <media>',
    '      <video>',
    '        <format><samplecharacteristics>',
    rateXml(rate, '          '),
    `          <width>${size.width}</width><height>${size.height}</height>`,
    '        </samplecharacteristics></format>',
    '        <track>',
    ...video.map((l) => `  ${l}`),
    '        </track>',
    '      </video>',
    '      <audio>',
    '        <track>',
    ...audio.map((l) => `  ${l}`),
    '        </track>',
    '      </audio>',
    '    </media>',
    '  </sequence>',
    '</xmeml>',
    '',
  ].join('\n');
}
