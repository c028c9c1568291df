import type { IncomingMessage } from 'node:http';

/** How far into the body the file part's headers are looked for (fields before it are a few short values). */
const SCAN_CAP = 256 * 1024;
const HEADER_END = Buffer.from('\r\n\r\n');

/**
 * Foresees the length of a multipart body's `file` part from the request's Content-Length, as when the file is the
 * last part (curl -F, fetch's FormData and Reelsync's client all send it last): the body's length less the bytes up
 * to the file's first byte and the closing `\r\n--boundary--\r\n`. Watches the raw body alongside the multipart parser
 * (attach it in the same tick as the parser starts reading, so that no chunk passes unseen). A guess, never trusted
 * for data: the store checks the count and falls back when it differs.
 */
export function watchFilePartLength(raw: IncomingMessage): () => number | null {
  const boundary = boundaryOf(raw.headers['content-type']);
  const contentLength = Number(raw.headers['content-length']);
  if (!boundary || !Number.isSafeInteger(contentLength) || contentLength <= 0) return () => null;
  const delimiter = Buffer.from(`--${boundary}\r\n`);
  const closing = `\r\n--${boundary}--\r\n`.length;
  let head = Buffer.alloc(0);
  let dataStart: number | null = null;
  let done = false;
  const stop = (): void => {
    done = true;
    raw.off('data', onData);
  };
  function onData(chunk: Buffer): void {
    head = Buffer.concat([head, chunk.subarray(0, SCAN_CAP - head.length)]);
    dataStart = fileDataStart(head, delimiter);
    if (dataStart !== null || head.length >= SCAN_CAP) stop();
  }
  raw.on('data', onData);
  return () => {
    if (!done) stop();
    if (dataStart === null) return null;
    const expected = contentLength - dataStart - closing;
    return expected > 0 ? expected : null;
  };
}

/** The offset of the file part's first byte in `head`, or null while its headers have not all arrived. */
function fileDataStart(head: Buffer, delimiter: Buffer): number | null {
  for (let at = head.indexOf(delimiter); at !== -1; at = head.indexOf(delimiter, at + delimiter.length)) {
    const headersStart = at + delimiter.length;
    const headersEnd = head.indexOf(HEADER_END, headersStart);
    if (headersEnd === -1) return null;
    const headers = head.subarray(headersStart, headersEnd).toString('latin1').toLowerCase();
    if (/content-disposition:[^\r\n]*\bname="file"/.test(headers) && headers.includes('filename=')) {
      return headersEnd + HEADER_END.length;
    }
  }
  return null;
}

function boundaryOf(contentType: string | undefined): string | null {
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  return match ? (match[1] ?? match[2] ?? null) : null;
}
