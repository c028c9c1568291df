import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Packs a folder as an editor would on the machine that has the model: `zip -r` (deflated) or `tar -cf`, with the
 * folder's own name as the archive's top folder. The system's zip and tar, real archives.
 */
export async function packFolder(parent: string, folder: string, archive: string): Promise<void> {
  if (archive.endsWith('.zip')) await run('zip', ['-r', '-q', archive, folder], { cwd: parent });
  else await run('tar', ['-cf', archive, folder], { cwd: parent });
}
