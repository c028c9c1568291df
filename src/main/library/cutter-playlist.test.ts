import { access, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture } from '../../../test/fixtures/media';
import { writePlaylist } from '../../../test/helpers/playlist';
import { tempDir } from '../../../test/helpers/temp';
import { cut, still } from './cutter';

let dir: string;
let cleanup: () => Promise<void>;
let victim: string;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-cutter-'));
  victim = await copyFixture('drawnTextMp4', dir, 'victim.mp4');
  await mkdir(join(dir, 'downloads'));
});
afterAll(async () => cleanup());

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** The error of a rejected promise, with the run's own file names taken out. */
async function failure(run: Promise<void>, ...names: string[]): Promise<string> {
  const err = await run.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Error);
  return names.reduce((m, n) => m.replaceAll(n, 'X'), (err as Error).message).replace(/0x[0-9a-f]+/g, '0x');
}

describe('the clip cutter on a file that came from a server', () => {
  it('cuts a real video', async () => {
    const out = join(dir, 'real-clip.mp4');
    await cut(victim, out, { from: 0.5, duration: 1 }, 'copy', 'mp4');
    expect(await exists(out)).toBe(true);
  });

  it('refuses a playlist named .mp4, whatever it points at, and writes nothing', async () => {
    const messages = new Set<string>();
    const targets = [`file://${victim}`, '../victim.mp4', `file://${dir}/missing.mp4`, '../missing.mp4'];
    for (const [i, target] of targets.entries()) {
      const source = await writePlaylist(join(dir, 'downloads', `served-${i}.mp4`), [target]);
      for (const mode of ['copy', 'accurate'] as const) {
        const out = join(dir, `clip-${i}-${mode}.mp4`);
        messages.add(await failure(cut(source, out, { from: 0, duration: 1 }, mode, 'mp4'), source, out));
        expect(await exists(out)).toBe(false);
      }
      const thumb = join(dir, `still-${i}.jpg`);
      messages.add(await failure(still(source, 0, thumb), source, thumb));
      expect(await exists(thumb)).toBe(false);
    }
    expect([...messages].every((m) => m.includes('Format not on whitelist'))).toBe(true);
    expect([...messages].some((m) => m.includes('victim') || m.includes('missing'))).toBe(false);
  });
});
