/** Status line and headers of an HTTP/1.x response. Header names are lower-cased; repeated headers are joined with ", ". */
export interface ResponseHead {
  status: number;
  headers: Record<string, string>;
}

/** How the body that follows a head is delimited (RFC 9112 section 6.3, for responses to GET). */
export type BodyFraming = { type: 'length'; bytes: number } | { type: 'chunked' } | { type: 'until-close' };

const STATUS_LINE = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/;
const HEADER_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*$/;

/** Parses the bytes before the blank line (without it). Throws on anything that is not a well-formed HTTP/1.x head. */
export function parseResponseHead(raw: string): ResponseHead {
  const lines = raw.split('\r\n');
  const m = STATUS_LINE.exec(lines[0] ?? '');
  if (!m?.[1]) throw new Error(`not an HTTP/1.x response: ${JSON.stringify((lines[0] ?? '').slice(0, 60))}`);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const h = HEADER_LINE.exec(line);
    if (!h?.[1]) throw new Error(`malformed response header line: ${JSON.stringify(line.slice(0, 60))}`);
    const name = h[1].toLowerCase();
    const value = h[2] ?? '';
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return { status: Number(m[1]), headers };
}

export function framingOf(head: ResponseHead): BodyFraming {
  if (head.status === 204 || head.status === 304) return { type: 'length', bytes: 0 };
  const te = head.headers['transfer-encoding'];
  if (te !== undefined) {
    if (!/(?:^|,)\s*chunked\s*$/i.test(te)) throw new Error(`unsupported transfer-encoding: ${te}`);
    return { type: 'chunked' };
  }
  const cl = head.headers['content-length'];
  if (cl === undefined) return { type: 'until-close' };
  // Repeated identical values ("10, 10") are allowed; anything else is a framing error.
  const values = new Set(cl.split(',').map((v) => v.trim()));
  const [only] = [...values];
  if (values.size !== 1 || only === undefined || !/^\d{1,15}$/.test(only)) throw new Error(`bad content-length: ${cl}`);
  return { type: 'length', bytes: Number(only) };
}
