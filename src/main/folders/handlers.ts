import type { HandlerMap } from '../ipc/registry';
import { browseFolder } from './browse';

/**
 * The folder browser of the web mode's picker. It reads folder names anywhere the user can, so it is reachable only
 * the way every channel is: the preload in the app, the token- and origin-checked /api/rpc in the web mode.
 */
export function folderHandlers() {
  return {
    'folders:browse': ({ path, hidden }) => browseFolder(path, { hidden }),
  } satisfies HandlerMap;
}
