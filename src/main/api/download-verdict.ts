import type { ResponseHead } from './response-head';

/** What a response head means for a download (plain data: it is decided in the download thread). */
export type Verdict =
  | { type: 'body'; start: number; total: number | null; fileName: string | null; contentType: string }
  /** An error answer: its body (the contract's JSON envelope) is read and mapped. */
  | { type: 'failure' }
  /** Not the continuation asked for: the part is emptied and the download starts over. */
  | { type: 'restart'; reason: string }
  | { type: 'unexpected-status'; status: number }
  | { type: 'bad-content-range' };

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

/**
 * Success and failure are told apart by the Content-Type (the contract's JSON envelope instead of a stream), then by the
 * status; a 206 must continue exactly at `offset`, and a resumed object must still have the size seen before.
 */
export function judge(head: ResponseHead, o: { offset: number; expectedTotal: number | null }): Verdict {
  const contentType = head.headers['content-type'] ?? '';
  if (JSON_TYPE.test(contentType) || head.status >= 400) return { type: 'failure' };
  if (head.status === 416) return { type: 'restart', reason: 'the part is larger than the resource (416)' };
  if (head.status !== 200 && head.status !== 206) return { type: 'unexpected-status', status: head.status };
  let start = 0;
  let total: number | null = numberHeader(head.headers['content-length']);
  if (head.status === 206) {
    const m = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(head.headers['content-range'] ?? '');
    if (!m) return { type: 'bad-content-range' };
    start = Number(m[1]);
    total = m[3] === '*' ? null : Number(m[3]);
  }
  if (start !== o.offset) {
    return {
      type: 'restart',
      reason:
        head.status === 200
          ? 'the server ignored the Range (200)'
          : `the server answered from byte ${start}, asked ${o.offset}`,
    };
  }
  const sameObject = o.expectedTotal === null || total === null || total === o.expectedTotal;
  if (o.offset > 0 && !sameObject) return { type: 'restart', reason: 'the resource changed size' };
  return { type: 'body', start, total, fileName: dispositionName(head.headers['content-disposition']), contentType };
}

function numberHeader(raw: string | undefined): number | null {
  if (raw === undefined || !/^\d+$/.test(raw)) return null;
  return Number(raw);
}

/** The file name a Content-Disposition header suggests (filename* preferred), unsanitised; null when none. */
export function dispositionName(raw: string | undefined): string | null {
  if (!raw) return null;
  const star = /filename\*\s*=\s*[^']*'[^']*'([^;]+)/i.exec(raw);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // fall through to the plain parameter
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(raw);
  const name = plain?.[1] ?? plain?.[2];
  return name ? name.replace(/\\(.)/g, '$1').trim() : null;
}
