import type { ServiceConfig } from '../config';
import { INDEX_RULES_VERSION } from '../indexer/index-rules';
import { JobRows } from '../jobs/job-rows';
import type { Sql } from '../storage/sql';
import { countOutdated, outdatedToQueue, queueOutdated } from './outdated-videos';

/**
 * `reindex-outdated [--queue]`: what the library's outdated videos (indexed under other index rules) come to, and with
 * `queue` their re-index jobs queued now (every one not queued yet under these rules); the lines to print.
 */
export async function reindexOutdatedCommand(sql: Sql, config: ServiceConfig, queue: boolean): Promise<string[]> {
  const counts = await countOutdated(sql);
  const waiting = (await outdatedToQueue(sql, Number.MAX_SAFE_INTEGER)).length;
  const lines = [
    `index rules: ${INDEX_RULES_VERSION}`,
    `outdated videos: ${counts.outdated}`,
    `  re-index queued or running: ${counts.queued}`,
    `  re-index failed under these rules (old index kept): ${counts.failed}`,
    `  original not kept (cannot be re-indexed): ${counts.withoutOriginal}`,
    `  not queued yet: ${waiting}`,
  ];
  if (!queue) return lines;
  const rows = new JobRows(sql);
  const queued = await queueOutdated(sql, rows.insertOnce.bind(rows), waiting, config.indexer.maxAttempts);
  lines.push(`queued: ${queued} (the service's workers re-index them one at a time, behind new uploads)`);
  return lines;
}
