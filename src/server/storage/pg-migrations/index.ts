import { pg001Library } from './001-library';
import { pg002SegmentSearch } from './002-segment-search';
import { pg003JobLeases } from './003-job-leases';
import { pg004RateLimits } from './004-rate-limits';
import { pg005DatalakeClaims } from './005-datalake-claims';
import { pg006EmbeddingVersions } from './006-embedding-versions';
import { pg007FacesByVideo } from './007-faces-by-video';
import { pg008UploadSessionClaims } from './008-upload-session-claims';
import { pg009EmbedClaims } from './009-embed-claims';
import { pg010SegmentSearchCounts } from './010-segment-search-counts';
import { pg011ModelFetchLeases } from './011-model-fetch-leases';
import { pg012SegmentSearchRank } from './012-segment-search-rank';
import type { PgMigration } from './pg-migration';

/** The service's PostgreSQL migrations, in order. Append only. */
export const pgMigrations: readonly PgMigration[] = [
  pg001Library,
  pg002SegmentSearch,
  pg003JobLeases,
  pg004RateLimits,
  pg005DatalakeClaims,
  pg006EmbeddingVersions,
  pg007FacesByVideo,
  pg008UploadSessionClaims,
  pg009EmbedClaims,
  pg010SegmentSearchCounts,
  pg011ModelFetchLeases,
  pg012SegmentSearchRank,
];
