import type { LibraryClient } from '../api/client';
import { libraryCall } from '../api/app-errors';
import type { HandlerMap } from '../ipc/registry';

/** The semantic model slot's channels: both ask the connected library service (offline without one). */
export function semanticHandlers(client: () => LibraryClient) {
  return {
    'semantic:state': () => libraryCall(() => client().semanticState()),
    'semantic:download': () => libraryCall(() => client().startSemanticDownload()),
    'semantic:cancel': () => libraryCall(() => client().cancelSemanticDownload()),
    'semantic:install': ({ path }) => libraryCall(() => client().installSemanticModel(path)),
  } satisfies HandlerMap;
}
