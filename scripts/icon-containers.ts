// Icon containers built from PNG renders: Apple's .icns and Windows' .ico both accept PNG payloads as they are, so
// no image library is needed, only their headers.

export interface IconPng {
  size: number;
  png: Buffer;
}

/** ICNS element types holding PNG data, by pixel size (a size appears twice when it is also some size's @2x). */
const ICNS_TYPES: Array<[type: string, size: number]> = [
  ['icp4', 16],
  ['icp5', 32],
  ['ic11', 32],
  ['icp6', 64],
  ['ic12', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic13', 256],
  ['ic09', 512],
  ['ic14', 512],
  ['ic10', 1024],
];

export const ICNS_SIZES = [...new Set(ICNS_TYPES.map(([, size]) => size))];
/** 256 is the largest an .ico entry can describe; electron-builder requires it. */
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];

function pngOf(pngs: IconPng[], size: number): Buffer {
  const found = pngs.find((p) => p.size === size);
  if (!found) throw new Error(`no ${size}px render for the icon`);
  return found.png;
}

/** An .icns file: 'icns' + total length, then one (type, length, PNG) element per entry; lengths include headers. */
export function encodeIcns(pngs: IconPng[]): Buffer {
  const elements = ICNS_TYPES.map(([type, size]) => {
    const png = pngOf(pngs, size);
    const header = Buffer.alloc(8);
    header.write(type, 0, 'ascii');
    header.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([header, png]);
  });
  const header = Buffer.alloc(8);
  header.write('icns', 0, 'ascii');
  header.writeUInt32BE(8 + elements.reduce((n, e) => n + e.length, 0), 4);
  return Buffer.concat([header, ...elements]);
}

/** An .ico file: ICONDIR, one 16-byte ICONDIRENTRY per size (0 stands for 256), then the PNGs. */
export function encodeIco(pngs: IconPng[]): Buffer {
  const images = ICO_SIZES.map((size) => ({ size, png: pngOf(pngs, size) }));
  const dir = Buffer.alloc(6 + 16 * images.length);
  dir.writeUInt16LE(0, 0);
  dir.writeUInt16LE(1, 2);
  dir.writeUInt16LE(images.length, 4);
  let offset = dir.length;
  images.forEach(({ size, png }, i) => {
    const at = 6 + 16 * i;
    dir.writeUInt8(size >= 256 ? 0 : size, at);
    dir.writeUInt8(size >= 256 ? 0 : size, at + 1);
    dir.writeUInt16LE(1, at + 4);
    dir.writeUInt16LE(32, at + 6);
    dir.writeUInt32LE(png.length, at + 8);
    dir.writeUInt32LE(offset, at + 12);
    offset += png.length;
  });
  return Buffer.concat([dir, ...images.map((i) => i.png)]);
}

/** Width and height from a PNG's IHDR chunk (checks the signature). */
export function pngSize(png: Buffer): { width: number; height: number } {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (png.length < 24 || !png.subarray(0, 8).equals(signature) || png.toString('ascii', 12, 16) !== 'IHDR')
    throw new Error('not a PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
