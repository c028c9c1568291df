import { pg001Library } from './001-library';
import { pg008SegmentSearch } from './008-segment-search';
import { pg009JobLeases } from './009-job-leases';
import { pg010RateLimits } from './010-rate-limits';
import { pg011DatalakeClaims } from './011-datalake-claims';
import { pg012EmbeddingVersions } from './012-embedding-versions';
import { pg013FacesByVideo } from './013-faces-by-video';
import { pg014UploadSessionClaims } from './014-upload-session-claims';
import { pg015EmbedClaims } from './015-embed-claims';
import { pg016SegmentSearchCounts } from './016-segment-search-counts';
import { pg017ModelFetchLeases } from './017-model-fetch-leases';
import { pg018SegmentSearchRank } from './018-segment-search-rank';
import { pg019SegmentSearchWords } from './019-segment-search-words';
import { pg020ShotQuality } from './020-shot-quality';
import { pg021IndexRules } from './021-index-rules';
import type { PgMigration } from './pg-migration';

/** SQLite migrations 2-7, whose schema 001-library already holds: recorded here as no-ops under their numbers. */
const inLibrary = (version: number, name: string): PgMigration => ({ version, name, up: '' });

/**
 * The service's PostgreSQL migrations, in order. Append only. One version number names one schema change on both
 * engines (../migrations has the same numbers).
 */
export const pgMigrations: readonly PgMigration[] = [
  pg001Library,
  inLibrary(2, 'search-index'),
  inLibrary(3, 'datalake'),
  inLibrary(4, 'face-model'),
  inLibrary(5, 'search-partitions'),
  inLibrary(6, 'unindex-empty-captions'),
  inLibrary(7, 'segment-embeddings'),
  pg008SegmentSearch,
  pg009JobLeases,
  pg010RateLimits,
  pg011DatalakeClaims,
  pg012EmbeddingVersions,
  pg013FacesByVideo,
  pg014UploadSessionClaims,
  pg015EmbedClaims,
  pg016SegmentSearchCounts,
  pg017ModelFetchLeases,
  pg018SegmentSearchRank,
  pg019SegmentSearchWords,
  pg020ShotQuality,
  pg021IndexRules,
];
