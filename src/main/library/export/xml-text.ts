import { pathToFileURL } from 'node:url';
import type { ExportMedia } from './export-item';

/** Text for an XML attribute or element: characters XML cannot hold dropped, the five specials escaped. */
export function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\x20-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * The media's address for an edit: its `file://` URL (every character a URL may not hold percent-encoded: spaces,
 * `#`, `?`, `%`, non-ASCII), or for media this computer does not hold its bare file name (relative: relinked by name).
 */
export function mediaUrl(media: ExportMedia): string {
  return media.path ? pathToFileURL(media.path).href : encodeURIComponent(media.name);
}
