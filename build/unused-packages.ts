// Production packages that only unused packages depend on. A few dependencies of what the app runs are never loaded
// at run time (listed in UNUSED_ROOTS with the reason); whatever only they pull in is never loaded either. Computed
// from package-lock.json at packaging time, so a package that something live starts to use again ships again.
import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** Installed as production dependencies, never loaded by the built app (reasons beside each). */
export const UNUSED_ROOTS = [
  // transformers.js under Node runs models on onnxruntime-node; its browser runtime is excluded whole (141 MB).
  'onnxruntime-web',
  // @tensorflow/tfjs' command line (dist/tools/custom_module) is the only user of yargs; its Node build never is.
  'yargs',
  // Polyfills for tfjs' browser bundle (dist/index_with_polyfills.js); tf.node.js requires none.
  'core-js',
  // Only onnxruntime-node's install script (script/, excluded) uses it.
  'global-agent',
  // Command-line parsers: only js-yaml's command line (bin/, excluded) and tfjs' tools (dist/tools, excluded) use it.
  'argparse',
] as const;

const Lockfile = z.object({
  packages: z.record(
    z.string(),
    z.object({
      dependencies: z.record(z.string(), z.string()).optional(),
      optionalDependencies: z.record(z.string(), z.string()).optional(),
      peerDependencies: z.record(z.string(), z.string()).optional(),
      dev: z.boolean().optional(),
    }),
  ),
});
type Lock = z.infer<typeof Lockfile>['packages'];

/** `name` as Node resolves it from the package at lock path `from` ('' is the project). */
function resolveIn(lock: Lock, from: string, name: string): string | null {
  let base = from;
  for (;;) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (lock[candidate]) return candidate;
    if (!base) return null;
    const parent = base.lastIndexOf('/node_modules/');
    base = parent < 0 ? '' : base.slice(0, parent);
  }
}

/** Lock paths reached from the project's production dependencies, not descending into `cut`. */
function reached(lock: Lock, cut: ReadonlySet<string>): Set<string> {
  const seen = new Set<string>();
  const stack = [''];
  while (stack.length > 0) {
    const path = stack.pop() ?? '';
    const entry = lock[path];
    const deps =
      path === ''
        ? entry?.dependencies
        : { ...entry?.dependencies, ...entry?.optionalDependencies, ...entry?.peerDependencies };
    for (const name of Object.keys(deps ?? {})) {
      if (cut.has(name)) continue;
      const found = resolveIn(lock, path, name);
      if (found && !seen.has(found)) {
        seen.add(found);
        stack.push(found);
      }
    }
  }
  return seen;
}

const nameOf = (lockPath: string): string => lockPath.slice(lockPath.lastIndexOf('node_modules/') + 13);

/**
 * Names of the packages every installed copy of which is reached only through `roots`: safe to leave out wherever
 * electron-builder places them (it hoists differently from npm, so the filter goes by name).
 */
export function packagesOnlyUnder(lockJson: string, roots: readonly string[] = UNUSED_ROOTS): string[] {
  const lock = Lockfile.parse(JSON.parse(lockJson)).packages;
  const all = reached(lock, new Set());
  const live = new Set([...reached(lock, new Set(roots))].map(nameOf));
  return [...new Set([...all].map(nameOf))].filter((name) => !live.has(name)).sort();
}

/** The `files` exclusions for those packages, read from the project's lockfile. */
export function unusedPackageFilters(lockfilePath: string): string[] {
  const names = packagesOnlyUnder(readFileSync(lockfilePath, 'utf8'));
  if (names.length === 0) return [];
  return [`!**/node_modules/${names.length === 1 ? names[0] : `{${names.join(',')}}`}/**`];
}
