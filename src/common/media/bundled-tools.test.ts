// The bundled ffmpeg/ffprobe as a packaged app runs them (REELSYNC_MEDIA_TOOLS=bundled), on the camera originals and
// uploads whose demuxers differ most. This file's process resolves its tools once, bundled.
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cameraOriginalPath } from '../../../test/fixtures/camera-originals';
import { fixturePath } from '../../../test/fixtures/media';
import { ffprobe } from './ffprobe';
import { measureTimeline } from './timeline';
import { bundledToolEnv, bundledToolPath, mediaTool } from './tools';

const saved = { tools: process.env.REELSYNC_MEDIA_TOOLS, gconv: process.env.GCONV_PATH };
beforeAll(() => {
  process.env.REELSYNC_MEDIA_TOOLS = 'bundled';
  delete process.env.GCONV_PATH;
});
afterAll(() => {
  for (const [name, value] of [
    ['REELSYNC_MEDIA_TOOLS', saved.tools],
    ['GCONV_PATH', saved.gconv],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe.runIf(process.platform === 'linux')('the bundled Linux tools', () => {
  it('probe and demux an AVCHD .MTS (MPEG-TS), which crashed the static ffprobe on Debian 12', async () => {
    const file = cameraOriginalPath('avchdMts');
    const probe = await ffprobe(file, { kind: 'cameraOriginal' });
    expect(mediaTool('ffprobe')).toEqual({ file: bundledToolPath('ffprobe'), source: 'bundled' });
    expect(probe).toMatchObject({ container: 'mpegts', video: { codec: 'h264', fps: 29.97 }, audio: { codec: 'ac3' } });
    const streams = await measureTimeline(file, 'cameraOriginal');
    expect(streams.find((s) => s.type === 'video')?.packets).toBe(90);
  });

  it('probe an mp4 as before', async () => {
    const probe = await ffprobe(fixturePath('drawnTextMp4'), { kind: 'uploadVideo' });
    expect(probe).toMatchObject({ video: { codec: 'h264', width: 1280, height: 720, fps: 25 }, durationSeconds: 4 });
  });

  it('set GCONV_PATH for themselves only when bundled on Linux and not already set', () => {
    const bundled = { file: '/opt/Reelsync/resources/app.asar.unpacked/x/ffprobe', source: 'bundled' } as const;
    expect(bundledToolEnv(bundled, {}, 'linux')).toEqual({ GCONV_PATH: dirname(bundled.file) });
    expect(bundledToolEnv(bundled, { GCONV_PATH: '/usr/lib/gconv' }, 'linux')).toEqual({});
    expect(bundledToolEnv(bundled, {}, 'darwin')).toEqual({});
    expect(bundledToolEnv({ file: '/usr/bin/ffprobe', source: 'path' }, {}, 'linux')).toEqual({});
  });
});
