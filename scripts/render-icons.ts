// `npm run icons`: renders build/icon.svg with headless Chromium into the icons electron-builder packs: build/icons/NxN.png
// (Linux), build/icon.icns (macOS) and build/icon.ico (Windows). The outputs are committed, so release machines need
// no browser; run this again after changing the SVG.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { launchChromium } from '../test/helpers/chromium';
import { encodeIcns, encodeIco, ICNS_SIZES, ICO_SIZES, type IconPng } from './icon-containers';

const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
export const ICON_SIZES = [...new Set([...LINUX_SIZES, ...ICNS_SIZES, ...ICO_SIZES])].sort((a, b) => a - b);

/** One transparent PNG per size, the SVG drawn to fill it. */
export async function renderSvg(svg: string, sizes: number[]): Promise<IconPng[]> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1 });
    const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
    const out: IconPng[] = [];
    for (const size of sizes) {
      await page.setViewportSize({ width: size, height: size });
      // setContent waits for the load event, which waits for the image.
      await page.setContent(
        `<html><body style="margin:0;background:transparent"><img src="${src}" width="${size}" height="${size}" style="display:block"></body></html>`,
      );
      out.push({
        size,
        png: await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } }),
      });
    }
    return out;
  } finally {
    await browser.close();
  }
}

export async function renderIcons(buildDir: string): Promise<void> {
  const pngs = await renderSvg(await readFile(join(buildDir, 'icon.svg'), 'utf8'), ICON_SIZES);
  await mkdir(join(buildDir, 'icons'), { recursive: true });
  for (const { size, png } of pngs.filter((p) => LINUX_SIZES.includes(p.size)))
    await writeFile(join(buildDir, 'icons', `${size}x${size}.png`), png);
  await writeFile(join(buildDir, 'icon.icns'), encodeIcns(pngs));
  await writeFile(join(buildDir, 'icon.ico'), encodeIco(pngs));
}

if (process.argv[1] === import.meta.filename) {
  await renderIcons(join(import.meta.dirname, '..', 'build'));
  console.log(
    `icons: rendered build/icon.svg at ${ICON_SIZES.join(', ')} px into build/icons/, build/icon.icns and build/icon.ico`,
  );
}
