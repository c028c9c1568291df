export const IMAGE_FORMATS = ['png', 'jpeg', 'gif', 'webp', 'bmp'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** ffmpeg's demuxer for each format: the query image is decoded as the format its header was read as, nothing else. */
export const IMAGE_DEMUXERS: Record<ImageFormat, string> = {
  png: 'png_pipe',
  jpeg: 'jpeg_pipe',
  gif: 'gif',
  webp: 'webp_pipe',
  bmp: 'bmp_pipe',
};

export interface ImageHeader {
  format: ImageFormat;
  width: number;
  height: number;
}

/**
 * The format and pixel size an image declares in its header, read without decoding a pixel: PNG's IHDR, JPEG's SOFn
 * frame header, GIF's logical screen, WebP's VP8/VP8L/VP8X chunk, BMP's DIB header. Undefined when the bytes are none
 * of these or the header is cut short; a zero width or height counts as unreadable.
 */
export function readImageHeader(bytes: Uint8Array): ImageHeader | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const header = png(b) ?? jpeg(b) ?? gif(b) ?? webp(b) ?? bmp(b);
  return header && header.width > 0 && header.height > 0 ? header : undefined;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function png(b: Buffer): ImageHeader | undefined {
  if (b.length < 24 || !b.subarray(0, 8).equals(PNG_SIGNATURE) || b.toString('latin1', 12, 16) !== 'IHDR')
    return undefined;
  return { format: 'png', width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

/** Start-of-frame markers (baseline, progressive, lossless, arithmetic); C4, C8 and CC are other tables. */
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpeg(b: Buffer): ImageHeader | undefined {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return undefined;
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    // Markers without a length: TEM, RST0-7; SOI/EOI here means a broken stream.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker === 0xd8 || marker === 0xd9 || marker === 0xda) return undefined;
    const length = b.readUInt16BE(at + 2);
    if (length < 2) return undefined;
    if (SOF.has(marker)) {
      if (at + 9 > b.length) return undefined;
      return { format: 'jpeg', height: b.readUInt16BE(at + 5), width: b.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
  return undefined;
}

function gif(b: Buffer): ImageHeader | undefined {
  const magic = b.toString('latin1', 0, 6);
  if (b.length < 10 || (magic !== 'GIF87a' && magic !== 'GIF89a')) return undefined;
  return { format: 'gif', width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
}

function webp(b: Buffer): ImageHeader | undefined {
  if (b.length < 30 || b.toString('latin1', 0, 4) !== 'RIFF' || b.toString('latin1', 8, 12) !== 'WEBP')
    return undefined;
  switch (b.toString('latin1', 12, 16)) {
    case 'VP8 ':
      // Frame tag (3 bytes), start code 9d 01 2a, then 14-bit width and height.
      if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return undefined;
      return { format: 'webp', width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
    case 'VP8L': {
      if (b[20] !== 0x2f) return undefined;
      const bits = b.readUInt32LE(21);
      return { format: 'webp', width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    case 'VP8X':
      return { format: 'webp', width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
    default:
      return undefined;
  }
}

function bmp(b: Buffer): ImageHeader | undefined {
  if (b.length < 26 || b.toString('latin1', 0, 2) !== 'BM') return undefined;
  const dibSize = b.readUInt32LE(14);
  if (dibSize === 12) return { format: 'bmp', width: b.readUInt16LE(18), height: b.readUInt16LE(20) };
  // Negative height = rows stored top-down.
  return { format: 'bmp', width: Math.abs(b.readInt32LE(18)), height: Math.abs(b.readInt32LE(22)) };
}
