// `npm run package-sizes -- dist/linux-unpacked/resources`: what a packaged app's app.asar and app.asar.unpacked hold,
// per top-level package, largest first (the size table in the README comes from here).
import { statSync } from 'node:fs';
import { getRawHeader } from '@electron/asar';
import { join } from 'node:path';

interface AsarEntry {
  files?: Record<string, AsarEntry>;
  size?: number;
  unpacked?: boolean;
  link?: string;
}

export interface PackageSize {
  /** `out`, `package.json` or `node_modules/<name>` (scoped names whole). */
  name: string;
  packed: number;
  unpacked: number;
}

export interface AsarFile {
  path: string;
  size: number;
  unpacked: boolean;
}

/**
 * Every file in an asar archive (paths without a leading slash), with its size and where it lives. An unpacked file's
 * size is read from disk: afterPack rewrites some of them (build/wordnet-pack.ts) after the header was written.
 */
export function asarFiles(asarPath: string): AsarFile[] {
  const out: AsarFile[] = [];
  const sizeOf = (path: string, child: AsarEntry): number =>
    child.unpacked
      ? (statSync(`${asarPath}.unpacked/${path}`, { throwIfNoEntry: false })?.size ?? 0)
      : (child.size ?? 0);
  const walk = (entry: AsarEntry, prefix: string): void => {
    for (const [name, child] of Object.entries(entry.files ?? {})) {
      const path = prefix ? `${prefix}/${name}` : name;
      if (child.files) walk(child, path);
      else if (child.link === undefined)
        out.push({ path, size: sizeOf(path, child), unpacked: child.unpacked === true });
    }
  };
  walk(getRawHeader(asarPath).header, '');
  return out;
}

/** The package a file belongs to: its outermost node_modules package, else its first path segment. */
export function topLevelOwner(path: string): string {
  const parts = path.split('/');
  if (parts[0] !== 'node_modules') return parts[0] ?? path;
  return parts[1]?.startsWith('@') ? parts.slice(0, 3).join('/') : parts.slice(0, 2).join('/');
}

export function packageSizes(files: AsarFile[]): PackageSize[] {
  const sizes = new Map<string, PackageSize>();
  for (const file of files) {
    const name = topLevelOwner(file.path);
    const row = sizes.get(name) ?? { name, packed: 0, unpacked: 0 };
    if (file.unpacked) row.unpacked += file.size;
    else row.packed += file.size;
    sizes.set(name, row);
  }
  return [...sizes.values()].sort((a, b) => b.packed + b.unpacked - (a.packed + a.unpacked));
}

const MIB = 1024 * 1024;
const mib = (bytes: number): string => (bytes / MIB).toFixed(1);

/** A markdown table of the largest packages and the totals. */
export function sizeTable(sizes: PackageSize[], rows: number): string {
  const packed = sizes.reduce((n, s) => n + s.packed, 0);
  const unpacked = sizes.reduce((n, s) => n + s.unpacked, 0);
  const lines = ['| package | MiB | of which unpacked |', '|---|---:|---:|'];
  for (const s of sizes.slice(0, rows))
    lines.push(`| ${s.name} | ${mib(s.packed + s.unpacked)} | ${mib(s.unpacked)} |`);
  lines.push(`| **total** (app.asar ${mib(packed)} + unpacked ${mib(unpacked)}) | **${mib(packed + unpacked)}** | |`);
  return lines.join('\n');
}

if (process.argv[1] === import.meta.filename) {
  const resources = process.argv[2];
  if (!resources) {
    console.error(
      'usage: npm run package-sizes -- <packaged app resources folder, e.g. dist/linux-unpacked/resources>',
    );
    process.exit(2);
  }
  console.log(sizeTable(packageSizes(asarFiles(join(resources, 'app.asar'))), Number(process.argv[3] ?? 15)));
}
