// The app icons: the committed .icns/.ico/PNG set holds every size electron-builder needs, and rendering the SVG
// again (headless Chromium) yields PNGs of the sizes asked for, wrapped into containers that read back.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeIcns, encodeIco, ICNS_SIZES, ICO_SIZES, pngSize } from '../../scripts/icon-containers';
import { renderSvg } from '../../scripts/render-icons';
import { skipBrowserTests } from '../helpers/chromium';

const BUILD = join(import.meta.dirname, '..', '..', 'build');

/** The PNG sizes inside an .icns file, read element by element. */
function icnsSizes(icns: Buffer): number[] {
  expect(icns.toString('ascii', 0, 4)).toBe('icns');
  expect(icns.readUInt32BE(4)).toBe(icns.length);
  const sizes: number[] = [];
  for (let at = 8; at < icns.length;) {
    const length = icns.readUInt32BE(at + 4);
    sizes.push(pngSize(icns.subarray(at + 8, at + length)).width);
    at += length;
  }
  return sizes;
}

/** The PNG sizes inside an .ico file, each checked against its directory entry. */
function icoSizes(ico: Buffer): number[] {
  expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
  return Array.from({ length: ico.readUInt16LE(4) }, (_, i) => {
    const at = 6 + 16 * i;
    const png = ico.subarray(ico.readUInt32LE(at + 12), ico.readUInt32LE(at + 12) + ico.readUInt32LE(at + 8));
    const { width, height } = pngSize(png);
    expect(width).toBe(height);
    expect(ico.readUInt8(at)).toBe(width >= 256 ? 0 : width);
    return width;
  });
}

describe('app icons', () => {
  it('ships .icns, .ico and the Linux PNG set at every size', async () => {
    expect(icnsSizes(await readFile(join(BUILD, 'icon.icns')))).toEqual([
      16, 32, 32, 64, 64, 128, 256, 256, 512, 512, 1024,
    ]);
    expect(icoSizes(await readFile(join(BUILD, 'icon.ico')))).toEqual(ICO_SIZES);
    const linux = (await readdir(join(BUILD, 'icons'))).sort((a, b) => parseInt(a) - parseInt(b));
    expect(linux).toEqual([
      '16x16.png',
      '24x24.png',
      '32x32.png',
      '48x48.png',
      '64x64.png',
      '128x128.png',
      '256x256.png',
      '512x512.png',
      '1024x1024.png',
    ]);
    for (const file of linux) {
      const { width, height } = pngSize(await readFile(join(BUILD, 'icons', file)));
      expect(`${width}x${height}.png`).toBe(file);
    }
  });

  it.skipIf(skipBrowserTests)('renders the SVG at each size and wraps the renders', async () => {
    const sizes = [...new Set([...ICNS_SIZES, ...ICO_SIZES])];
    const pngs = await renderSvg(await readFile(join(BUILD, 'icon.svg'), 'utf8'), sizes);
    expect(pngs.map((p) => pngSize(p.png))).toEqual(sizes.map((s) => ({ width: s, height: s })));
    expect(icnsSizes(encodeIcns(pngs))).toEqual([16, 32, 32, 64, 64, 128, 256, 256, 512, 512, 1024]);
    expect(icoSizes(encodeIco(pngs))).toEqual(ICO_SIZES);
    expect(() => encodeIco(pngs.filter((p) => p.size !== 256))).toThrow(/no 256px render/);
  });
});
