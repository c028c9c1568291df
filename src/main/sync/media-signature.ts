import { open } from 'node:fs/promises';

/**
 * What a file's first bytes say it is, when ffprobe cannot read it: a media container (then it is a video cut short or
 * damaged), text (a note, a log, a web page saved with a video's name) or other data. The containers a watched folder
 * holds: ISO BMFF (MP4, MOV), Matroska/WebM, AVI, MPEG-TS/PS, MXF, FLV, ASF, Ogg.
 */
export type Signature = 'media' | 'text' | 'other';

const BOX_TYPES = new Set(['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide', 'pnot', 'uuid', 'styp']);

export async function fileSignature(path: string): Promise<Signature> {
  const handle = await open(path, 'r');
  const head = Buffer.alloc(512);
  let length: number;
  try {
    ({ bytesRead: length } = await handle.read(head, 0, head.length, 0));
  } finally {
    await handle.close();
  }
  const b = head.subarray(0, length);
  if (b.length >= 8 && BOX_TYPES.has(b.toString('latin1', 4, 8))) return 'media';
  const starts = (hex: string): boolean => b.subarray(0, hex.length / 2).equals(Buffer.from(hex, 'hex'));
  if (starts('1a45dfa3') || starts('060e2b34') || starts('000001ba') || starts('3026b2758e66cf11')) return 'media';
  if (
    b.toString('latin1', 0, 4) === 'RIFF' ||
    b.toString('latin1', 0, 3) === 'FLV' ||
    b.toString('latin1', 0, 4) === 'OggS'
  )
    return 'media';
  if (b[0] === 0x47 && (b.length < 189 || b[188] === 0x47)) return 'media';
  return isText(b) ? 'text' : 'other';
}

/** UTF-8 text with no control characters but tab, newline and carriage return. */
function isText(b: Buffer): boolean {
  if (b.length === 0) return false;
  for (const byte of b) if (byte < 0x09 || (byte > 0x0d && byte < 0x20) || byte === 0x7f) return false;
  // A multi-byte character cut at the end of the sample is still text.
  return !b.toString('utf8').slice(0, -1).includes('\uFFFD');
}
