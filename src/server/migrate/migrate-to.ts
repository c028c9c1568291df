import { join } from 'node:path';
import { ConfigError, parseConfig } from '../config';
import { UploadStaging, uploadDirOf } from '../datalake/upload-staging';
import { LocalBlobStore } from '../storage/local-blob-store';
import { openBlobStore } from '../storage/open-blob-store';
import { openPgSql } from '../storage/open-pg-sql';
import type { PgSql } from '../storage/pg-sql';
import type { S3Settings } from '../storage/s3-client';
import { SqliteSql } from '../storage/sqlite-sql';
import { copyTable } from './copy-rows';
import { blobCounts, copyBlobs, libraryBlobs, LibraryBytes, verifyBlobs } from './library-blobs';
import { pendingNotes, pendingUploads } from './pending-uploads';
import { rebuildSearchIndex, verifySearchIndex } from './search-index';
import { openSourceLibrary } from './source-library';
import { planTables } from './table-plan';
import { countRows, tableChecksum } from './table-rows';
import { refuseOtherData } from './target-guard';

export interface MigrateOptions {
  dataDir: string;
  databaseUrl: string;
  s3: { endpoint?: string | undefined; bucket: string; region?: string | undefined; forcePathStyle: boolean };
  env?: NodeJS.ProcessEnv;
  /** One line of progress or result. */
  log: (line: string) => void;
}

/** What the final verification found different; empty when the copy is whole. */
export type Differences = string[];

const CHECKSUM_BATCH = 1000;
const PROGRESS_EVERY_MS = 1000;

/**
 * Copies an embedded library (service.db and its blobs) to the team backend (PostgreSQL and S3), then verifies it:
 * per table the row count and a checksum on both engines, per blob its size and, for originals, the SHA-256. Safe to
 * run again, whole or after being killed: rows and blobs already there are skipped.
 */
export async function migrateTo(options: MigrateOptions): Promise<Differences> {
  const { log } = options;
  if (!/^postgres(ql)?:\/\//.test(options.databaseUrl) || !URL.canParse(options.databaseUrl)) {
    throw new ConfigError('--database: expected postgres://user[:password]@host[:port]/database');
  }
  // Every argument is checked before anything is opened: a bad bucket or missing credentials cost nothing.
  const config = parseConfig({ storage: { s3: dropUndefined(options.s3) } });
  const target = await openBlobStore(config, options.dataDir, join(options.dataDir, 'tmp'), options.env);
  const db = openSourceLibrary(options.dataDir);
  let pg: PgSql | undefined;
  try {
    await target.check();
    pg = await openPgSql(options.databaseUrl, { max: 2 });
    const source = new SqliteSql(db);
    const plan = await planTables(db, pg);
    await refuseOtherData(db, pg, plan.tables);
    log(`copying ${plan.tables.length} tables from ${options.dataDir} to PostgreSQL at ${pg.where}`);
    for (const table of plan.tables) {
      const tick = throttled();
      const copied = await copyTable(source, pg, table, (done, total) => {
        if (done < total && tick()) log(`  ${table.name}: ${done}/${total} rows (${percent(done, total)})`);
      });
      log(
        `  ${table.name}: ${copied.rows} rows, ${copied.inserted} new, ${copied.rows - copied.inserted} already there`,
      );
    }
    const searchable = await rebuildSearchIndex(db, pg);
    log(
      `  search index: ${searchable} segments indexed on PostgreSQL, rebuilt from the library's FTS5 index ` +
        `(its ${plan.skipped.length} SQLite-only tables are not copied)`,
    );
    const local = new LocalBlobStore(join(options.dataDir, 'blobs'));
    const uploadDir = uploadDirOf(options.dataDir);
    const pending = await pendingUploads(source, local, new UploadStaging(local, uploadDir));
    const blobs = [...(await libraryBlobs(source)), ...pending.staged];
    log(`  blobs to copy: ${blobCounts(blobs)}`);
    for (const line of pendingNotes(pending, uploadDir)) log(line);
    const bytes = new LibraryBytes(local);
    const tick = throttled();
    const copied = await copyBlobs(blobs, bytes, target, (p) => {
      if (tick() || p.blobs === blobs.length) {
        log(
          `  blobs: ${p.blobs}/${blobs.length}, ${mb(p.bytes)} of ${mb(p.totalBytes)} (${percent(p.bytes, p.totalBytes)})`,
        );
      }
    });
    log(`  blobs: ${copied.uploaded} uploaded, ${copied.skipped} already there`);
    log('verifying');
    const differences: Differences = [];
    for (const table of plan.tables) {
      const [mine, theirs] = [await countRows(source, table.name), await countRows(pg, table.name)];
      if (mine !== theirs)
        differences.push(`table ${table.name}: ${mine} rows in the library, ${theirs} in the target`);
      else if (
        (await tableChecksum(source, table, CHECKSUM_BATCH)) !== (await tableChecksum(pg, table, CHECKSUM_BATCH))
      )
        differences.push(`table ${table.name}: same ${mine} rows but their checksums differ`);
    }
    differences.push(...(await verifySearchIndex(db, pg)));
    differences.push(...(await verifyBlobs(blobs, bytes, target)));
    if (differences.length === 0) {
      log(
        `verified: ${plan.tables.length} tables and ${blobs.length} blobs equal ` +
          `(${pending.staged.length} of them uploads staged for their queued ingest)`,
      );
    }
    return differences;
  } finally {
    await pg?.close();
    db.close();
  }
}

/**
 * What to do about differences in rows: rows already copied are never updated, so a library changed after an earlier
 * run differs from its copy until the copy starts over. Null when no table differs.
 */
export function rowDifferenceHint(differences: Differences): string | null {
  if (!differences.some((d) => d.startsWith('table ') || d.startsWith('search index'))) return null;
  return (
    'rows copied by an earlier run are never updated: if the library changed since, empty the team database ' +
    '(a new database, or in psql: DROP SCHEMA public CASCADE; CREATE SCHEMA public;) and run migrate-to again; ' +
    'blobs already in the bucket at their size are not sent again'
  );
}

function dropUndefined(s3: MigrateOptions['s3']): Partial<S3Settings> {
  return Object.fromEntries(Object.entries(s3).filter(([, v]) => v !== undefined));
}

function throttled(): () => boolean {
  let last = 0;
  return () => {
    const now = Date.now();
    if (now - last < PROGRESS_EVERY_MS) return false;
    last = now;
    return true;
  };
}

function percent(done: number, total: number): string {
  return `${total === 0 ? 100 : Math.floor((done / total) * 100)}%`;
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
