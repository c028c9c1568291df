import { AppError } from '../../shared/errors';
import type { LibraryClient } from '../api/client';
import { libraryCall } from '../browse/api-errors';
import type { HandlerRegistry } from '../ipc/registry';

/** The semantic model slot's channels: both ask the connected library service (offline without one). */
export function registerSemanticHandlers(r: HandlerRegistry, client: () => LibraryClient | undefined): void {
  const connected = (): LibraryClient => {
    const c = client();
    if (!c) throw new AppError('offline', 'no library service is connected');
    return c;
  };
  r.handle('semantic:state', () => libraryCall(() => connected().semanticState()));
  r.handle('semantic:download', () => libraryCall(() => connected().startSemanticDownload()));
}
