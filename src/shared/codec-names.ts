/**
 * Codecs as editors know them, from ffprobe's lowercase names ("prores", "mpeg4") and, where ffprobe gives one, the
 * profile ("HQ"): "Apple ProRes 422 HQ", "MPEG-4 Part 2". A name not listed is shown in capitals as ffprobe wrote it.
 */
const NAMES: Record<string, string> = {
  h264: 'H.264',
  hevc: 'HEVC',
  h265: 'HEVC',
  vp9: 'VP9',
  vp8: 'VP8',
  av1: 'AV1',
  prores: 'Apple ProRes',
  dnxhd: 'Avid DNxHD',
  mpeg4: 'MPEG-4 Part 2',
  msmpeg4v2: 'Microsoft MPEG-4 v2',
  msmpeg4v3: 'Microsoft MPEG-4 v3',
  mpeg2video: 'MPEG-2',
  mpeg1video: 'MPEG-1',
  mjpeg: 'Motion JPEG',
  dvvideo: 'DV',
  cfhd: 'GoPro CineForm',
  qtrle: 'QuickTime Animation',
  rawvideo: 'uncompressed video',
  wmv3: 'Windows Media Video 9',
  vc1: 'VC-1',
  theora: 'Theora',
  flv1: 'Sorenson Spark (Flash video)',
  h263: 'H.263',
  hap: 'HAP',
  png: 'PNG',
};

/** ProRes profiles as ffprobe names them, and as Apple does. */
const PRORES: Record<string, string> = {
  Proxy: '422 Proxy',
  LT: '422 LT',
  Standard: '422',
  HQ: '422 HQ',
  '4444': '4444',
  '4444 XQ': '4444 XQ',
  '4444XQ': '4444 XQ',
  XQ: '4444 XQ',
};

export function codecDisplayName(codec: string, profile?: string | null): string {
  const key = codec.toLowerCase();
  const name = NAMES[key] ?? codec.toUpperCase();
  if (!profile) return name;
  if (key === 'prores') return PRORES[profile] ? `${name} ${PRORES[profile]}` : name;
  // DNxHR is DNxHD's family for resolutions above HD: ffprobe names it in the profile ("DNXHR HQ").
  if (key === 'dnxhd' && /^DNXHR/i.test(profile)) return `Avid DNxHR ${profile.replace(/^DNXHR\s*/i, '')}`.trim();
  return name;
}
