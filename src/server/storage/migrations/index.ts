import type { Migration } from '../../../shared/sqlite-migrate';
import { SHARED_NUMBERING_MARK } from '../schema-renumbering';
import { m001Core } from './001-core';
import { m002SearchIndex } from './002-search-index';
import { m003Datalake } from './003-datalake';
import { m004FaceModel } from './004-face-model';
import { m005SearchPartitions } from './005-search-partitions';
import { m006UnindexEmptyCaptions } from './006-unindex-empty-captions';
import { m007SegmentEmbeddings } from './007-segment-embeddings';
import { m009JobLeases } from './009-job-leases';
import { m010RateLimits } from './010-rate-limits';
import { m011DatalakeClaims } from './011-datalake-claims';
import { m012EmbeddingVersions } from './012-embedding-versions';
import { m013FacesByVideo } from './013-faces-by-video';
import { m014UploadSessionClaims } from './014-upload-session-claims';
import { m015EmbedClaims } from './015-embed-claims';
import { m017ModelFetchLeases } from './017-model-fetch-leases';
import { m020ShotQuality } from './020-shot-quality';
import { m021IndexRules } from './021-index-rules';

/**
 * Service database migrations, in order. Append only. One version number names one schema change on both engines
 * (../pg-migrations has the same numbers); a PostgreSQL-only change keeps its number here as a recorded no-op.
 */
export const serviceMigrations: readonly Migration[] = [
  m001Core,
  m002SearchIndex,
  m003Datalake,
  m004FaceModel,
  m005SearchPartitions,
  m006UnindexEmptyCaptions,
  m007SegmentEmbeddings,
  // PostgreSQL only (segment_search: SQLite has FTS5). The first version numbered apart from the old SQLite tree, so
  // it marks the file as numbered the shared way (schema-renumbering.ts).
  { version: 8, name: 'segment-search', up: `PRAGMA application_id = ${SHARED_NUMBERING_MARK}` },
  m009JobLeases,
  m010RateLimits,
  m011DatalakeClaims,
  m012EmbeddingVersions,
  m013FacesByVideo,
  m014UploadSessionClaims,
  m015EmbedClaims,
  { version: 16, name: 'segment-search-counts', up: '' }, // PostgreSQL only: FTS5 keeps its own counts
  m017ModelFetchLeases,
  { version: 18, name: 'segment-search-rank', up: '' }, // PostgreSQL only: FTS5 ranks from its own index
  { version: 19, name: 'segment-search-words', up: '' }, // PostgreSQL only: FTS5 keeps its own posting lists
  m020ShotQuality,
  m021IndexRules,
];
