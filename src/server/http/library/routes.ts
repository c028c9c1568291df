import type { FastifyInstance } from 'fastify';
import { API_BASE_PATH, API_V2_BASE_PATH } from '../../../shared/api-types';
import type { ServiceContext } from '../../context';
import { LibraryIngest } from '../../library/ingest';
import { LibrarySearch } from '../../search/library-search';
import { authenticate } from '../auth';
import { registerDownload } from './download';
import { registerFolders } from './folders';
import { registerMetadata } from './metadata';
import { registerSearch } from './search';
import { registerSearchImage } from './search-image';
import { registerSemantic } from './semantic';
import { registerUpload } from './upload';
import { registerUploadUrl } from './upload-url';
import { registerVideos } from './videos';

/** Interface A under /serve/api/v1, and the v2 path variant of download. */
export function registerLibraryRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const ingest = new LibraryIngest(ctx);
  void app.register(
    (scope, _opts, done) => {
      const search = new LibrarySearch(ctx);
      scope.addHook('onClose', () => search.close());
      scope.addHook('preHandler', authenticate(ctx.accounts, 'library'));
      registerUpload(scope, ctx, ingest);
      registerUploadUrl(scope, ctx, ingest);
      registerMetadata(scope, ctx);
      registerSearch(scope, search);
      registerSearchImage(scope, ctx, search);
      registerDownload(scope, ctx);
      registerVideos(scope, ctx);
      registerFolders(scope, ctx);
      registerSemantic(scope, ctx);
      done();
    },
    { prefix: API_BASE_PATH },
  );
  void app.register(
    (scope, _opts, done) => {
      scope.addHook('preHandler', authenticate(ctx.accounts, 'library'));
      registerDownload(scope, ctx);
      done();
    },
    { prefix: API_V2_BASE_PATH },
  );
}
