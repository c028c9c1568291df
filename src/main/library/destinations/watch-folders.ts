import { isAbsolute } from 'node:path';
import { AppError } from '../../../shared/errors';
import { realPathOf, systemFolderProblem } from './system-folders';

/**
 * The real path of a folder the renderer asks to watch (folders:add, sync:add-paths), or `forbidden` for a system
 * folder, the home folder itself, or the app's own data folder (see systemFolderProblem). Symlinks are resolved
 * first, so a link to / is refused like / itself.
 */
export async function refuseSystemFolder(path: string, dataDir: string): Promise<string> {
  if (!isAbsolute(path)) throw new AppError('bad_request', `an absolute path is required: ${JSON.stringify(path)}`);
  const real = await realPathOf(path);
  const problem = systemFolderProblem(real, { dataDir: await realPathOf(dataDir) });
  if (problem) throw new AppError('forbidden', `not watched: ${problem}`);
  return real;
}
