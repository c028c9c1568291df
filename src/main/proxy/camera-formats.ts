import { extname } from 'node:path';

/**
 * File names that may be camera originals worth a search proxy, beyond the library's own extensions: MXF (XDCAM,
 * XAVC, DNxHD/HR, AVC-Intra), AVCHD's MPEG-TS, MPEG program streams, DV and other containers ffmpeg reads.
 */
export const CAMERA_EXTENSIONS: readonly string[] = [
  '.mxf',
  '.mts',
  '.m2ts',
  '.ts',
  '.mpg',
  '.mpeg',
  '.m2v',
  '.vob',
  '.dv',
  '.m4v',
  '.3gp',
  '.webm',
  '.wmv',
  '.flv',
];

/** Camera raw formats ffmpeg cannot decode, with the maker's tool that can. */
const RAW_FORMATS: Record<string, { name: string; tool: string }> = {
  '.r3d': { name: 'RED R3D', tool: "REDCINE-X PRO or RED's SDK" },
  '.braw': { name: 'Blackmagic RAW', tool: 'Blackmagic RAW Player or DaVinci Resolve' },
  '.ari': { name: 'ARRIRAW', tool: 'ARRI Reference Tool or DaVinci Resolve' },
  '.crm': { name: 'Canon Cinema RAW Light', tool: 'Canon Cinema RAW Development or DaVinci Resolve' },
};

export const RAW_EXTENSIONS: readonly string[] = Object.keys(RAW_FORMATS);

/** The skip reason for a camera raw file (plain-reasons.ts words it), or null when the name is not one. */
export function rawFormatProblem(path: string): string | null {
  const raw = RAW_FORMATS[extname(path).toLowerCase()];
  if (!raw) return null;
  return `camera raw ${raw.name} cannot be decoded here (open it in ${raw.tool})`;
}
