import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ffmpegPath } from '../../common/media/tools';

const run = promisify(execFile);

export const HARDWARE_ENCODERS = ['h264_videotoolbox', 'h264_nvenc', 'h264_qsv', 'h264_vaapi'] as const;
export type EncoderName = (typeof HARDWARE_ENCODERS)[number] | 'libx264';

/** How one H.264 encoder is driven: options before the input, the end of the filter chain, the codec options. */
export interface EncoderSpec {
  name: EncoderName;
  beforeInput: string[];
  /** Appended to the scale filter (hardware upload where the encoder takes frames on the GPU). */
  filterTail: string;
  codec: (bitsPerSecond: number) => string[];
}

const rateControl = (b: number): string[] => ['-b:v', String(b), '-maxrate', String(b), '-bufsize', String(2 * b)];

/**
 * libx264's preset: `superfast` keeps CABAC and 8x8 transforms (a real High profile stream; `ultrafast` drops to
 * Constrained Baseline whatever profile is asked) and meets 3x real time for 1080p25 ProRes on 2 cores (bench proxy).
 */
export const X264_PRESET = 'superfast';

export const ENCODERS: Record<EncoderName, EncoderSpec> = {
  libx264: {
    name: 'libx264',
    beforeInput: [],
    filterTail: 'format=yuv420p',
    codec: (b) => ['-c:v', 'libx264', '-preset', X264_PRESET, '-profile:v', 'high', ...rateControl(b)],
  },
  h264_videotoolbox: {
    name: 'h264_videotoolbox',
    beforeInput: [],
    filterTail: 'format=yuv420p',
    codec: (b) => ['-c:v', 'h264_videotoolbox', '-allow_sw', '0', '-profile:v', 'high', ...rateControl(b)],
  },
  h264_nvenc: {
    name: 'h264_nvenc',
    beforeInput: [],
    filterTail: 'format=yuv420p',
    codec: (b) => ['-c:v', 'h264_nvenc', '-preset', 'p4', '-profile:v', 'high', ...rateControl(b)],
  },
  h264_qsv: {
    name: 'h264_qsv',
    beforeInput: [],
    filterTail: 'format=nv12',
    codec: (b) => ['-c:v', 'h264_qsv', '-profile:v', 'high', ...rateControl(b)],
  },
  h264_vaapi: {
    name: 'h264_vaapi',
    beforeInput: ['-vaapi_device', '/dev/dri/renderD128'],
    filterTail: 'format=nv12,hwupload',
    codec: (b) => ['-c:v', 'h264_vaapi', '-profile:v', 'high', ...rateControl(b)],
  },
};

/** The hardware H.264 encoders this ffmpeg was built with, from `ffmpeg -encoders`, in order of preference. */
export function listedHardwareEncoders(encodersOutput: string): EncoderName[] {
  const listed = new Set(
    encodersOutput
      .split('\n')
      .map((line) => /^\s*V[.A-Z]{5}\s+(\S+)/.exec(line)?.[1])
      .filter((name): name is string => name !== undefined),
  );
  return HARDWARE_ENCODERS.filter((name) => listed.has(name));
}

/** Encodes one small frame with `spec`: built in is not enough, the device must be there and work. */
export async function testEncode(spec: EncoderSpec, signal?: AbortSignal): Promise<boolean> {
  try {
    await run(
      ffmpegPath(),
      [
        ...['-hide_banner', '-nostdin', '-v', 'error', ...spec.beforeInput],
        ...['-f', 'lavfi', '-i', 'color=c=gray:size=256x144:rate=25', '-frames:v', '1'],
        ...['-vf', spec.filterTail, ...spec.codec(500_000), '-f', 'null', '-'],
      ],
      { signal, timeout: 15_000 },
    );
    return true;
  } catch {
    return false;
  }
}

export interface EncoderProbe {
  listEncoders: () => Promise<string>;
  test: (spec: EncoderSpec) => Promise<boolean>;
}

const realProbe: EncoderProbe = {
  listEncoders: async () => (await run(ffmpegPath(), ['-hide_banner', '-encoders'], { maxBuffer: 4 << 20 })).stdout,
  test: (spec) => testEncode(spec),
};

/** The first listed hardware encoder whose test encode works, else libx264 (always there in the bundled ffmpeg). */
export async function chooseEncoder(probe: EncoderProbe = realProbe): Promise<EncoderSpec> {
  for (const name of listedHardwareEncoders(await probe.listEncoders())) {
    const spec = ENCODERS[name];
    if (await probe.test(spec)) return spec;
  }
  return ENCODERS.libx264;
}

let chosen: Promise<EncoderSpec> | undefined;

/** chooseEncoder once per process: a test encode per hardware encoder costs up to a second. */
export function detectedEncoder(): Promise<EncoderSpec> {
  chosen ??= chooseEncoder().catch(() => ENCODERS.libx264);
  return chosen;
}
