import type { Migration } from '../../../shared/sqlite-migrate';
import { m001Core } from './001-core';
import { m002SearchIndex } from './002-search-index';
import { m003Datalake } from './003-datalake';
import { m004FaceModel } from './004-face-model';
import { m005SearchPartitions } from './005-search-partitions';
import { m006UnindexEmptyCaptions } from './006-unindex-empty-captions';
import { m007SegmentEmbeddings } from './007-segment-embeddings';
import { m008JobLeases } from './008-job-leases';
import { m009RateLimits } from './009-rate-limits';
import { m010DatalakeClaims } from './010-datalake-claims';
import { m011EmbeddingVersions } from './011-embedding-versions';
import { m012FacesByVideo } from './012-faces-by-video';
import { m013UploadSessionClaims } from './013-upload-session-claims';
import { m014EmbedClaims } from './014-embed-claims';
import { m015ModelFetchLeases } from './015-model-fetch-leases';

/** Service database migrations, in order. Append only. */
export const serviceMigrations: readonly Migration[] = [
  m001Core,
  m002SearchIndex,
  m003Datalake,
  m004FaceModel,
  m005SearchPartitions,
  m006UnindexEmptyCaptions,
  m007SegmentEmbeddings,
  m008JobLeases,
  m009RateLimits,
  m010DatalakeClaims,
  m011EmbeddingVersions,
  m012FacesByVideo,
  m013UploadSessionClaims,
  m014EmbedClaims,
  m015ModelFetchLeases,
];
