import { randomBytes } from 'node:crypto';

/** The meta tag the renderer reads its style nonce from (Radix's scroll lock injects a <style> element). */
export const STYLE_NONCE_META = 'reelsync-style-nonce';

export function newStyleNonce(): string {
  return randomBytes(18).toString('base64url');
}

/** The CSP with this page load's nonce allowed for <style> elements; scripts stay 'self' only. */
export function cspWithStyleNonce(csp: string, nonce: string): string {
  if (!/^[A-Za-z0-9_-]{16,}$/.test(nonce)) throw new Error('bad nonce');
  return csp.replace(/style-src 'self'/, `style-src 'self' 'nonce-${nonce}'`);
}

/** index.html with the nonce in a meta tag, for the renderer to hand to the style injector. */
export function withStyleNonce(html: string, nonce: string): string {
  const meta = `<meta name="${STYLE_NONCE_META}" content="${nonce}" />`;
  return html.includes('</head>') ? html.replace('</head>', `    ${meta}\n  </head>`) : `${meta}${html}`;
}
