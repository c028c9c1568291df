import { execFile, spawnSync } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DRAWN_TEXT, fixturePath } from '../fixtures/media';
import { apiClient, waitForStatus } from '../helpers/api';
import { startLibrary, syncOriginal } from '../helpers/library';
import type { TestService } from '../helpers/service';
import { useService } from '../helpers/use-service';
import { tempDir } from '../helpers/temp';

const run = promisify(execFile);
const CLI = join(import.meta.dirname, '../../src/main/cli.ts');

let service: TestService;
let dir: string;
let cleanup: () => Promise<void>;
let original: string;

/** The drawn-text fixture as a camera original would be: QuickTime with a tmcd track and a reel name. */
async function cameraOriginal(folder: string): Promise<string> {
  const out = join(folder, 'A010C001.mov');
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-i', fixturePath('drawnTextMp4'), '-c', 'copy'],
    ...['-timecode', '01:00:00:00', '-metadata:s:v', 'reel_name=A010', out],
  ]);
  return out;
}

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const res = spawnSync(
    process.execPath,
    ['--import', 'tsx', CLI, '--server', service.origin, '--key', service.key, '--db', join(dir, 'client.db'), ...args],
    { encoding: 'utf8', timeout: 60_000 },
  );
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

const testService = useService();
beforeAll(async () => {
  service = testService();
  ({ dir, cleanup } = await tempDir('reelsync-export-cli-'));
  const folder = join(dir, 'footage');
  await mkdir(folder);
  original = await cameraOriginal(folder);
  const videoNo = await syncOriginal(dir, folder, service);
  expect((await waitForStatus(apiClient(service.baseUrl, service.key), videoNo, 120_000)).status).toBe('PARSE');
  const local = await startLibrary(dir, service);
  try {
    const saved = local.feature.clips.save({
      videoNo,
      videoName: 'A010C001.mov',
      start: 1,
      end: 2,
      handles: 0.4,
      mode: 'accurate',
      format: 'mov',
      query: 'harbour',
      text: '',
      tags: ['pick'],
      notes: '',
    });
    expect((await local.feature.clips.settled(saved.id)).state).toBe('ready');
  } finally {
    await local.stop();
  }
}, 180_000);

afterAll(async () => {
  await cleanup?.();
});

describe('the command line sends hits and clips back to the edit', () => {
  test('search --json: each hit carries the local path of its camera original', () => {
    const res = cli('search', DRAWN_TEXT, '--json', '--type', 'BY_CAPTION');
    expect(res.status, res.stderr).toBe(0);
    const hits = JSON.parse(res.stdout) as { file?: string }[];
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => h.file === original)).toBe(true);
  });

  test('export --format edl: the original by name and reel at its timecode, handles clamped to the media', async () => {
    const out = join(dir, 'hits.edl');
    const res = cli(
      'export',
      DRAWN_TEXT,
      '--type',
      'BY_CAPTION',
      '--format',
      'edl',
      '--out',
      out,
      '--top-k',
      '1',
      '--handles',
      '0.5',
    );
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout.trim()).toBe(out);
    const edl = await readFile(out, 'utf8');
    const event = edl
      .split('\r\n')
      .find((l) => /^001 /.test(l))
      ?.split(/\s+/);
    expect(event?.[1]).toBe('A010');
    expect(edl).toContain('* FROM CLIP NAME: A010C001.mov');
    expect(edl).toContain(`* SOURCE FILE: ${original}`);
    // A hit starting at the video's start cannot have handles before it: the source starts at the original's 01:00:00:00.
    expect(event?.[4]?.startsWith('01:00:0')).toBe(true);
  });

  test('export --format otio and fcpxml link the original file at its timecode', async () => {
    const otioFile = join(dir, 'hits.otio');
    expect(cli('export', DRAWN_TEXT, '--type', 'BY_CAPTION', '--format', 'otio', '--out', otioFile).status).toBe(0);
    const otio = JSON.parse(await readFile(otioFile, 'utf8')) as {
      tracks: {
        children: {
          children: {
            media_references: {
              DEFAULT_MEDIA: { target_url: string; available_range: { start_time: { value: number } } };
            };
          }[];
        }[];
      };
    };
    const ref = otio.tracks.children[0]?.children[0]?.media_references.DEFAULT_MEDIA;
    expect(fileURLToPath(ref?.target_url ?? '')).toBe(original);
    expect(ref?.available_range.start_time.value).toBeGreaterThan(0);
    const fcp = join(dir, 'hits.fcpxml');
    expect(cli('export', DRAWN_TEXT, '--type', 'BY_CAPTION', '--format', 'fcpxml', '--out', fcp).status).toBe(0);
    expect(await readFile(fcp, 'utf8')).toContain('src="file://');
  });

  test('clips export: saved clips with a tag, linked to the camera original at original TC + in - handles', async () => {
    const out = join(dir, 'clips.edl');
    const res = cli('clips', 'export', '--format', 'edl', '--out', out, '--tag', 'pick');
    expect(res.status, res.stderr).toBe(0);
    const edl = await readFile(out, 'utf8');
    const event = edl
      .split('\r\n')
      .find((l) => /^001 /.test(l))
      ?.split(/\s+/);
    expect(edl).not.toContain('CONVERTED'); // one original: the list is at its own rate
    expect(event?.[1]).toBe('A010');
    expect(edl).toContain('* FROM CLIP NAME: A010C001.mov');
    expect(event?.slice(4, 6)).toEqual(['01:00:00:15', '01:00:02:10']); // 25 fps: 1 s - 0.4 s .. 2 s + 0.4 s
    const none = cli('clips', 'export', '--format', 'csv', '--out', join(dir, 'none.csv'), '--tag', 'nothing');
    expect(none.status).toBe(0);
  });
});
