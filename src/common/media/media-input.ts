/**
 * The one way ffmpeg and ffprobe open a local media file. Left to itself ffmpeg picks any of its demuxers by content,
 * whatever the file's name: an HLS or concat playlist uploaded as `x.mp4` then makes it open every path or URL the
 * playlist lists (another account's stored video, `../` paths, http), and its answer tells whether those exist. So
 * every input is opened with the `file` protocol only (the input itself, no nested http, data, concat or subfile) and
 * with a whitelist of the demuxers that kind of input may be: a playlist, or any format that references other files,
 * is refused before ffmpeg reads anything but the file itself, with the same answer whatever it points at.
 */

/** QuickTime/MP4 (one demuxer, several names), Matroska/WebM, AVI: what POST /upload accepts. */
const UPLOAD_VIDEO = ['mov', 'mp4', 'm4a', '3gp', '3g2', 'mj2', 'matroska', 'webm', 'avi'] as const;

export const INPUT_FORMATS = {
  uploadVideo: UPLOAD_VIDEO,
  /**
   * A stored original: the upload's containers plus the datalake's others (flv/f4v, asf for wmv, MPEG program and
   * transport streams, raw MPEG video). None of these demuxers opens another file.
   */
  storedVideo: [...UPLOAD_VIDEO, 'flv', 'asf', 'mpeg', 'mpegts', 'mpegvideo'],
  /** A camera original the client makes a search proxy of: the stored kinds plus MXF and DV. */
  cameraOriginal: [...UPLOAD_VIDEO, 'flv', 'asf', 'mpeg', 'mpegts', 'mpegvideo', 'mxf', 'dv'],
  /** Still images: keyframes and posters (JPEG) and query photos (JPEG, PNG, WebP, BMP, TIFF, GIF). */
  image: ['image2', 'jpeg_pipe', 'png_pipe', 'webp_pipe', 'bmp_pipe', 'tiff_pipe', 'gif'],
} as const satisfies Record<string, readonly string[]>;

export type InputKind = keyof typeof INPUT_FORMATS;

/** How an InputKind is named to users when a file is refused. */
export const INPUT_KIND_NAMES: Record<InputKind, string> = {
  uploadVideo: 'mp4/mov, mkv/webm or avi',
  storedVideo: 'mp4/mov, mkv/webm, avi, flv, wmv, mpg or ts',
  cameraOriginal: 'mp4/mov, mxf, mkv/webm, avi, mts/ts, mpg, dv, flv or wmv',
  image: 'JPEG, PNG, WebP, BMP, TIFF or GIF',
};

/**
 * ffmpeg/ffprobe arguments that open `path` as one input of `kind`: `before` holds per-input options that must precede
 * `-i` (`-ss`, `-skip_frame`, `-threads`). The path goes as a `file:` URL so a name like `concat:a|b` or `http:x` is a
 * file name, never a protocol.
 */
export function mediaInput(kind: InputKind, path: string, before: readonly string[] = []): string[] {
  return [
    ...before,
    '-protocol_whitelist',
    'file',
    '-format_whitelist',
    INPUT_FORMATS[kind].join(','),
    '-i',
    `file:${path}`,
  ];
}

/**
 * The demuxer ffmpeg refused in its stderr ("[hls @ 0x...] Format not on whitelist ..."), or null when the stderr is
 * about something else.
 */
export function refusedFormat(stderr: string): string | null {
  const m = /\[([\w,-]+) @ 0x[0-9a-f]+\] Format not on whitelist/.exec(stderr);
  return m?.[1] ?? null;
}

/** The message for a refused input, naming only the file's own format (never a path it refers to). */
export function refusalMessage(kind: InputKind, format: string): string {
  return `the file is ${format === 'hls' ? 'an HLS playlist' : `in the ${format} format`}, not a supported ${kind === 'image' ? 'image' : 'video container'} (${INPUT_KIND_NAMES[kind]})`;
}
