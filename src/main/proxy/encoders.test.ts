import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { chooseEncoder, ENCODERS, HARDWARE_ENCODERS, listedHardwareEncoders, testEncode } from './encoders';

const run = promisify(execFile);

/** Lines as `ffmpeg -encoders` prints them on a Mac build (VideoToolbox) beside a software-only one. */
const MAC_LINES = [
  ' V....D libx264              libx264 H.264 / AVC / MPEG-4 AVC / MPEG-4 part 10 (codec h264)',
  ' V....D h264_videotoolbox    VideoToolbox H.264 Encoder (codec h264)',
  ' V....D hevc_videotoolbox    VideoToolbox H.265 Encoder (codec hevc)',
  ' A....D aac                  AAC (Advanced Audio Coding)',
].join('\n');

describe('hardware encoder choice', () => {
  it('reads the hardware H.264 encoders from the real `ffmpeg -encoders` list', async () => {
    const { stdout } = await run('ffmpeg', ['-hide_banner', '-encoders']);
    const listed = listedHardwareEncoders(stdout);
    for (const name of HARDWARE_ENCODERS)
      expect(listed.includes(name), name).toBe(new RegExp(` ${name} `).test(stdout));
    expect(listedHardwareEncoders(MAC_LINES)).toEqual(['h264_videotoolbox']);
    expect(listedHardwareEncoders(' V....D libx264  libx264 H.264 (codec h264)')).toEqual([]);
  });

  it('takes the first listed encoder whose test encode works, libx264 when none does', async () => {
    const tried: string[] = [];
    const listing = ['h264_nvenc', 'h264_qsv', 'h264_vaapi'].map((n) => ` V....D ${n}   x (codec h264)`).join('\n');
    const works = (ok: string[]) => ({
      listEncoders: () => Promise.resolve(listing),
      test: (spec: { name: string }) => {
        tried.push(spec.name);
        return Promise.resolve(ok.includes(spec.name));
      },
    });
    expect((await chooseEncoder(works(['h264_qsv', 'h264_vaapi']))).name).toBe('h264_qsv');
    expect(tried).toEqual(['h264_nvenc', 'h264_qsv']);
    expect((await chooseEncoder(works([]))).name).toBe('libx264');
  });

  it('fails the test encode of a device that is not there, and passes it with libx264 for real', async () => {
    const missingDevice = {
      ...ENCODERS.h264_vaapi,
      beforeInput: ['-vaapi_device', '/dev/dri/no-such-render-node'],
    };
    expect(await testEncode(missingDevice)).toBe(false);
    expect(await testEncode(ENCODERS.libx264)).toBe(true);
    // On this machine (no GPU) the real detection must land on libx264 or on an encoder that really encodes.
    const chosen = await chooseEncoder();
    expect(await testEncode(chosen)).toBe(true);
  });
});
