/**
 * This page load's style nonce (the server puts it in a meta tag and in the CSP): the only inline <style> the CSP allows.
 * Radix's scroll lock picks it up through `__webpack_nonce__`; Radix Select's viewport takes it as a prop.
 */
export const styleNonce: string | undefined =
  document.querySelector<HTMLMetaElement>('meta[name="reelsync-style-nonce"]')?.content || undefined;
