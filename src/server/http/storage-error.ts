const FULL = new Set(['ENOSPC', 'EDQUOT']);

/** A write that failed because the service's disk (or quota) is full: answered 507 with this message, never as a client error. */
export function diskFullMessage(err: unknown): string | null {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !FULL.has(code)) return null;
  return `the service could not store the upload: its disk is full (${code}); nothing was kept, try again once space is freed`;
}
