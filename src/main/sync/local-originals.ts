import { existsSync } from 'node:fs';
import { z } from 'zod';
import type { Db } from '../store/database';

const rowSchema = z.object({ path: z.string() });

/**
 * Finds a local original of a library video: a watched file whose content was uploaded (or found) as that video and
 * that is still on disk. Read-only over the sync engine's tables.
 */
export class LocalOriginals {
  constructor(private readonly db: Db) {}

  pathOf(videoNo: string): string | null {
    const rows = z
      .array(rowSchema)
      .parse(
        this.db
          .prepare(
            "SELECT f.path FROM files f JOIN contents c ON c.hash = f.hash WHERE c.video_no = ? AND f.state = 'linked' ORDER BY f.id",
          )
          .all(videoNo),
      );
    return rows.find((r) => existsSync(r.path))?.path ?? null;
  }

  /** One lookup per distinct video of a result list. */
  pathsOf(videoNos: string[]): Map<string, string | null> {
    const out = new Map<string, string | null>();
    for (const no of new Set(videoNos)) out.set(no, this.pathOf(no));
    return out;
  }
}
