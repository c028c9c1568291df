/** File name safe to store and to hand back in Content-Disposition: no folders, no control or reserved characters. */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .replace(/[\p{Cc}<>:"|?*]/gu, '_')
    .replace(/^[.\s]+/, '')
    .trim();
  const limited = Buffer.byteLength(cleaned) > 200 ? truncateBytes(cleaned, 200) : cleaned;
  return limited || 'video';
}

function truncateBytes(text: string, max: number): string {
  const dot = text.lastIndexOf('.');
  const ext = dot > 0 && text.length - dot <= 8 ? text.slice(dot) : '';
  let stem = text.slice(0, text.length - ext.length);
  while (Buffer.byteLength(stem + ext) > max) stem = stem.slice(0, -1);
  return stem + ext;
}

/** The stored name of a video fetched from a link: its last path segment (percent-decoded where it decodes), sanitised. */
export function urlFileName(url: string): string {
  const last = new URL(url).pathname.split('/').pop() ?? '';
  let decoded = last;
  try {
    decoded = decodeURIComponent(last);
  } catch {
    // a malformed escape: keep the raw segment
  }
  return safeFileName(decoded || 'video');
}
