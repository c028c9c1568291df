// The files Node loads first from a package: its `exports` as Node resolves them (for `import` and for `require`), or
// its `main` when it has no `exports`. Used to check that packaging filters cut nothing a package is entered by.
import { z } from 'zod';

// `main` is not always a string in the wild (false in some manifests): Node then ignores it, and so does this.
const Manifest = z.object({ main: z.unknown().optional(), exports: z.unknown().optional() });

/** Conditions Node (20.19+, and Electron's) matches, for an ES import and a require. */
const CONDITION_SETS = [
  new Set(['node', 'import', 'module-sync', 'default']),
  new Set(['node', 'require', 'module-sync', 'default']),
];

/** Exported files that are no code Node loads (bowser exports its README and declarations). */
const NOT_CODE = /\.(md|d\.[cm]?ts)$/;

/** The target Node picks for one export value under `conditions` (the first matching key, in the object's order). */
function pick(value: unknown, conditions: ReadonlySet<string>): string | null {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = pick(item, conditions);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (conditions.has(key)) return pick(inner, conditions);
    }
  }
  return null;
}

/** Subpath -> export value ("." for a package whose `exports` is a string, an array or a conditions object). */
function subpaths(exports: unknown): Array<[string, unknown]> {
  if (exports && typeof exports === 'object' && !Array.isArray(exports)) {
    const entries = Object.entries(exports);
    if (entries.length > 0 && entries.every(([key]) => key.startsWith('.'))) return entries;
  }
  return [['.', exports]];
}

/**
 * Package-relative paths (without `./`) of every entry Node can open for an import or a require of this package or one
 * of its exported subpaths; wildcard and folder subpaths, declarations and docs are left out.
 */
export function nodeEntryPoints(manifest: unknown): string[] {
  const pkg = Manifest.parse(manifest);
  const targets = new Set<string>();
  if (pkg.exports === undefined) {
    if (typeof pkg.main === 'string' && pkg.main) targets.add(pkg.main);
  } else {
    for (const [subpath, value] of subpaths(pkg.exports)) {
      if (subpath.includes('*')) continue;
      for (const conditions of CONDITION_SETS) {
        const target = pick(value, conditions);
        if (target && !target.includes('*') && !target.endsWith('/') && !NOT_CODE.test(target)) targets.add(target);
      }
    }
  }
  return [...targets].map((t) => t.replace(/^\.\//, ''));
}
