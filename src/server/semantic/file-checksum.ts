import { createHash, type Hash } from 'node:crypto';

/**
 * What a model host states a file's content hashes to. The Hub states it two ways: a file kept in LFS (the weights)
 * answers `X-Linked-Etag: "<sha256 of the content>"` on its resolve address (before redirecting to its CDN); a small
 * file kept in git answers `ETag: "<git blob id>"`, the sha1 of `blob <size>\0<content>`.
 */
export type StatedChecksum = { kind: 'sha256'; hex: string } | { kind: 'git-blob-sha1'; hex: string };

/** The checksum response headers state, or null when they state none we can check. */
export function statedChecksum(headers: Record<string, string | string[] | undefined>): StatedChecksum | null {
  const header = (name: string): string | undefined => {
    const v = headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const clean = (v: string | undefined): string | undefined =>
    v?.replace(/^W\//, '').replace(/^"|"$/g, '').toLowerCase();
  const linked = clean(header('x-linked-etag'));
  if (linked && /^[0-9a-f]{64}$/.test(linked)) return { kind: 'sha256', hex: linked };
  const etag = clean(header('etag'));
  if (etag && /^[0-9a-f]{64}$/.test(etag)) return { kind: 'sha256', hex: etag };
  if (etag && /^[0-9a-f]{40}$/.test(etag)) return { kind: 'git-blob-sha1', hex: etag };
  return null;
}

/** A running hash of a file's content for the stated kind; `size` is the whole file's (git's blob header needs it). */
export function contentHash(stated: StatedChecksum, size: number): Hash {
  if (stated.kind === 'sha256') return createHash('sha256');
  return createHash('sha1').update(`blob ${size}\0`);
}
