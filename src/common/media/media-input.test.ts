import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, fixturePath } from '../../../test/fixtures/media';
import { writeConcatScript, writePlaylist } from '../../../test/helpers/playlist';
import { tempDir } from '../../../test/helpers/temp';
import { ffprobe, ProbeError } from './ffprobe';
import { INPUT_FORMATS, mediaInput, type InputKind } from './media-input';

/** ffmpeg to completion; rejects with its stderr. */
function ffmpeg(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('ffmpeg', args, (err, _stdout, stderr) => (err ? reject(new Error(stderr)) : resolve()));
  });
}

const SRC = join(import.meta.dirname, '../..');
const KINDS = Object.keys(INPUT_FORMATS) as InputKind[];

let dir: string;
let cleanup: () => Promise<void>;
let victim: string;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-media-input-'));
  victim = await copyFixture('drawnTextMp4', dir, 'victim.mp4');
  await mkdir(join(dir, 'sub'));
});
afterAll(async () => cleanup());

/** Playlists named x.mp4 pointing at the victim (absolute file://, plain absolute, relative ../) and at missing files. */
async function playlists(): Promise<{ existing: string[]; missing: string[] }> {
  const make = (name: string, target: string) => writePlaylist(join(dir, 'sub', name), [target]);
  return {
    existing: [
      await make('abs.mp4', `file://${victim}`),
      await make('plain.mp4', victim),
      await make('rel.mp4', '../victim.mp4'),
    ],
    missing: [
      await make('abs-missing.mp4', `file://${dir}/nothing.mp4`),
      await make('rel-missing.mp4', '../nothing.mp4'),
    ],
  };
}

async function probeError(file: string, kind: InputKind): Promise<ProbeError> {
  const err = await ffprobe(file, { kind }).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof ProbeError)) throw new Error(`${file} as ${kind}: expected a ProbeError, got ${String(err)}`);
  return err;
}

describe('mediaInput', () => {
  it('opens real videos and images', async () => {
    for (const name of ['phoneH264Mp4', 'hevcMov', 'vp9Mkv', 'mpeg4Avi'] as const) {
      expect((await ffprobe(fixturePath(name), { kind: 'uploadVideo' })).video).not.toBeNull();
      expect((await ffprobe(fixturePath(name), { kind: 'storedVideo' })).video).not.toBeNull();
    }
    const jpeg = join(dir, 'still.jpg');
    await ffmpeg(['-v', 'error', '-y', ...mediaInput('storedVideo', victim), '-frames:v', '1', jpeg]);
    const png = join(dir, 'still-no-extension');
    await ffmpeg(['-v', 'error', '-y', ...mediaInput('image', jpeg), '-f', 'image2', '-c:v', 'png', png]);
    expect((await ffprobe(png, { kind: 'image' })).container).toBe('png_pipe');
  });

  it.each(KINDS)('refuses a playlist as %s, with one answer whether its targets exist or not', async (kind) => {
    const { existing, missing } = await playlists();
    const messages = new Set<string>();
    for (const file of [...existing, ...missing]) {
      const err = await probeError(file, kind);
      expect(err.refusedFormat).toBe('hls');
      messages.add(err.message);
    }
    expect([...messages]).toEqual([expect.stringContaining('HLS playlist')]);
    expect([...messages][0]).not.toContain(dir);
  });

  it('refuses a concat script and an image where a video is expected', async () => {
    const script = await writeConcatScript(join(dir, 'sub', 'concat.mp4'), [victim]);
    expect((await probeError(script, 'storedVideo')).refusedFormat).toBe('concat');
    const jpeg = join(dir, 'still.jpg');
    expect((await probeError(jpeg, 'uploadVideo')).refusedFormat).toBe('image2');
  });

  it('makes ffmpeg fail on a playlist without reading its target, the same way for a missing target', async () => {
    const { existing, missing } = await playlists();
    const outcomes = new Set<string>();
    for (const file of [...existing, ...missing]) {
      const out = join(dir, 'frame.jpg');
      const err = await ffmpeg(['-v', 'error', '-y', ...mediaInput('storedVideo', file), '-frames:v', '1', out]).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(Error);
      // Only the demuxer's address (a pointer) and the playlist's own name may differ.
      outcomes.add((err as Error).message.replace(file, 'FILE').replace(/0x[0-9a-f]+/g, '0x'));
    }
    expect(outcomes.size).toBe(1);
    expect([...outcomes][0]).toMatch(/Format not on whitelist/);
  });

  it('is how every ffmpeg and ffprobe call in src opens its input', async () => {
    // The live-stream puller reads network URLs under its own protocol whitelist (security/ssrf.ts), not local media;
    // the proxy maker runs the arguments proxy-args.ts builds with mediaInput; the encoder check reads a lavfi test
    // pattern, no file at all.
    const exempt = new Set([
      'common/media/media-input.ts',
      'server/datalake/stream-worker.ts',
      'main/proxy/make-proxy.ts',
      'main/proxy/encoders.ts',
    ]);
    const offenders: string[] = [];
    for (const file of await sourceFiles(SRC)) {
      const name = relative(SRC, file);
      if (exempt.has(name)) continue;
      const text = await readFile(file, 'utf8');
      const runsTool = /ff(mpeg|probe)Path\(\)/.test(text);
      // originalInput (media/original-probe.ts) is mediaInput for camera originals.
      const opens = text.includes('mediaInput(') || text.includes('originalInput(');
      if (text.includes("'-i'") || (runsTool && !opens)) offenders.push(name);
    }
    expect(offenders).toEqual([]);
  });

  it('runs ffmpeg and ffprobe only as tools.ts resolves them (env, bundled or PATH), never by a bare name', async () => {
    const offenders: string[] = [];
    for (const file of await sourceFiles(SRC)) {
      const name = relative(SRC, file);
      if (name === 'common/media/tools.ts') continue;
      const text = await readFile(file, 'utf8');
      if (/['"`]ff(mpeg|probe)(\.exe)?['"`]/.test(text)) offenders.push(name);
    }
    expect(offenders).toEqual([]);
  });
});

async function sourceFiles(root: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(root, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
      found.push(join(entry.parentPath, entry.name));
  }
  return found;
}
