import { randomBytes } from 'node:crypto';

/** Public ids: a short kind prefix and 20 random url-safe characters. */
export function newId(prefix: 'col' | 'op' | 'msg' | 'evt' | 'face' | 'str' | 'wkr'): string {
  return `${prefix}_${randomBytes(15).toString('base64url')}`;
}
