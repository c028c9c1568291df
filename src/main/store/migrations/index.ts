import type { Migration } from '../../../shared/sqlite-migrate';
import { m001Settings } from './001-settings';
import { m002Sync } from './002-sync';
import { m003Library } from './003-library';
import { m004DownloadPartNames } from './004-download-part-names';
import { m005ClipName } from './005-clip-name';
import { m006UploadHistory } from './006-upload-history';
import { m007FileMedia } from './007-file-media';
import { m008ClipMedia } from './008-clip-media';
import { m009FileStatusCounts } from './009-file-status-counts';
import { m010Proxies } from './010-proxies';
import { m011OriginalIdentity } from './011-original-identity';
import { m012StoppedWatchFolders } from './012-stopped-watch-folders';

/** Client database migrations, in order. Append only. */
export const clientMigrations: readonly Migration[] = [
  m001Settings,
  m002Sync,
  m003Library,
  m004DownloadPartNames,
  m005ClipName,
  m006UploadHistory,
  m007FileMedia,
  m008ClipMedia,
  m009FileStatusCounts,
  m010Proxies,
  m011OriginalIdentity,
  m012StoppedWatchFolders,
];
