import { createReadStream } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';

export interface FilePart {
  field: string;
  path: string;
  filename: string;
  contentType: string;
  size: number;
  /** When given, the bytes read are hashed and the closing boundary is only sent if they still have this SHA-256. */
  sha256?: string;
}

export interface MultipartBody {
  contentType: string;
  length: number;
  /** Yields the encoded body; reads the file in chunks, so memory stays flat whatever its size. */
  stream(onBytes: (n: number) => void, signal?: AbortSignal): AsyncGenerator<Uint8Array>;
}

const CRLF = '\r\n';
const FILE_CHUNK = 1024 * 1024;

function safeHeaderValue(value: string): string {
  return value.replace(/["\r\n\\]/g, '_');
}

/**
 * multipart/form-data with text fields first, then one file part streamed from disk.
 * The length is known up front, so the request carries Content-Length (no chunked encoding).
 */
export function multipartBody(fields: [string, string][], file: FilePart): MultipartBody {
  const boundary = `----reelsync${randomBytes(12).toString('hex')}`;
  const head = Buffer.from(
    fields
      .map(
        ([name, value]) =>
          `--${boundary}${CRLF}Content-Disposition: form-data; name="${safeHeaderValue(name)}"${CRLF}${CRLF}${value}${CRLF}`,
      )
      .join('') +
      `--${boundary}${CRLF}Content-Disposition: form-data; name="${safeHeaderValue(file.field)}"; filename="${safeHeaderValue(file.filename)}"${CRLF}` +
      `Content-Type: ${file.contentType}${CRLF}${CRLF}`,
  );
  const tail = Buffer.from(`${CRLF}--${boundary}--${CRLF}`);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: head.length + file.size + tail.length,
    async *stream(onBytes, signal) {
      yield head;
      let sent = 0;
      const hash = file.sha256 ? createHash('sha256') : null;
      const input = createReadStream(file.path, { highWaterMark: FILE_CHUNK, signal, end: file.size - 1 });
      for await (const chunk of input as AsyncIterable<Buffer>) {
        sent += chunk.length;
        hash?.update(chunk);
        onBytes(chunk.length);
        yield chunk;
      }
      if (sent !== file.size) throw new Error(`file shrank during upload: read ${sent} of ${file.size} bytes`);
      // Without the closing boundary the service refuses the body, so changed bytes are never stored under the old hash.
      if (hash && hash.digest('hex') !== file.sha256)
        throw new Error('file changed during upload: its content no longer has the hash it was queued with');
      yield tail;
    },
  };
}
