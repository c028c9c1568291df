import { elements, parseXml, type XmlElement } from './xml';
import { normalTimecode, rateFromLabel, sidecarFactsSchema, type SidecarFacts } from './sidecar-facts';

/**
 * Sony's LtcChange value: four BCD bytes written frames, seconds, minutes, hours ("17305719" is 19:57:30:17). Bit 6 of
 * the frames byte is the drop-frame flag; the top bits of the others are field and colour flags, masked off.
 */
export function sonyLtc(value: string): { timecode: string; drop: boolean } | null {
  if (!/^[0-9a-fA-F]{8}$/.test(value)) return null;
  const bytes = [0, 2, 4, 6].map((i) => parseInt(value.slice(i, i + 2), 16));
  const [ff, ss, mm, hh] = bytes as [number, number, number, number];
  const bcd = (b: number): number | null => (b >> 4 > 9 || (b & 15) > 9 ? null : (b >> 4) * 10 + (b & 15));
  const parts = [bcd(hh & 0x3f), bcd(mm & 0x7f), bcd(ss & 0x7f), bcd(ff & 0x3f)];
  if (parts.some((p) => p === null)) return null;
  const [h, m, s, f] = parts.map((p) => String(p).padStart(2, '0'));
  const drop = (ff & 0x40) !== 0;
  if (Number(m) > 59 || Number(s) > 59) return null;
  return { timecode: `${h}:${m}:${s}${drop ? ';' : ':'}${f}`, drop };
}

const first = (root: XmlElement, name: string, attr: string): string | null =>
  elements(root, name)
    .map((e) => e.attrs[attr]?.trim())
    .find((v): v is string => !!v) ?? null;

/** The facts of a Sony XDCAM/XAVC clip's `<clip>M01.XML` (NonRealTimeMeta), or null when it is not one. */
export function parseSonyXml(text: string, file: string): SidecarFacts | null {
  const root = parseXml(text);
  if (!root || root.name !== 'NonRealTimeMeta') return null;
  const table = elements(root, 'LtcChangeTable')[0];
  const start = table ? elements(table, 'LtcChange').find((c) => c.attrs.frameCount === '0') : undefined;
  const ltc = start?.attrs.value ? sonyLtc(start.attrs.value) : null;
  const fpsLabel = first(root, 'VideoFrame', 'formatFps') ?? first(root, 'VideoFrame', 'captureFps');
  const tcFps = table?.attrs.tcFps ?? null;
  // formatFps says 29.97p where tcFps says 30: the exact rate comes from the format, the timebase from the table.
  const rate = rateFromLabel(fpsLabel) ?? rateFromLabel(tcFps);
  const parsed = sidecarFactsSchema.safeParse({
    kind: 'sony-xml',
    file,
    startTimecode: ltc ? normalTimecode(ltc.timecode, ltc.drop) : null,
    rate,
    dropFrame: ltc ? ltc.drop : null,
    altTimecode: null,
    reel: null,
    clipName: null,
    cameraMake: first(root, 'Device', 'manufacturer'),
    cameraModel: first(root, 'Device', 'modelName'),
    createdAt: first(root, 'CreationDate', 'value'),
  });
  return parsed.success ? parsed.data : null;
}
