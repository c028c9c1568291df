import { randomBytes } from 'node:crypto';
import { AppError } from '../../../shared/errors';

export type GrantKind = 'file' | 'folder';

interface Grant {
  kind: GrantKind;
  path: string;
  expiresAt: number;
}

const TTL_MS = 10 * 60_000;

/**
 * Destinations the user picked in a native dialog run by main, as one-time grants: the renderer only ever holds an
 * unguessable id, and a channel that writes takes the path from here. A grant is used up by the write it authorises.
 */
export class DestinationGrants {
  private readonly grants = new Map<string, Grant>();

  constructor(private readonly now: () => number = Date.now) {}

  issue(kind: GrantKind, path: string): string {
    this.prune();
    const id = randomBytes(18).toString('base64url');
    this.grants.set(id, { kind, path, expiresAt: this.now() + TTL_MS });
    return id;
  }

  /** The granted path; refused when the id is unknown, used, expired, or of the other kind. */
  peek(id: string, kind: GrantKind): string {
    this.prune();
    const grant = this.grants.get(id);
    if (!grant || grant.kind !== kind)
      throw new AppError(
        'forbidden',
        `no ${kind} destination was granted under this id (grants are used once and expire after 10 minutes): choose the destination again`,
      );
    return grant.path;
  }

  use(id: string): void {
    this.grants.delete(id);
  }

  private prune(): void {
    const now = this.now();
    for (const [id, g] of this.grants) if (g.expiresAt <= now) this.grants.delete(id);
  }
}
