// `npm run package-sizes -- dist/linux-unpacked/resources [rows] [--before <another build's resources>]`: what a
// packaged app's app.asar and app.asar.unpacked hold, per top-level package, largest first (the size table in the README
// comes from here); with --before, each package's size in the other build beside it and the change.
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
const total = (sizes: PackageSize[]): number => sizes.reduce((n, s) => n + s.packed + s.unpacked, 0);
/** The goal is set in decimal megabytes, the table in MiB: the total line gives both. */
const totalLine = (bytes: number): string => `${mib(bytes)} MiB = ${(bytes / 1e6).toFixed(1)} MB`;

/** A markdown table of the largest packages and the totals. */
export function sizeTable(sizes: PackageSize[], rows: number): string {
  const packed = sizes.reduce((n, s) => n + s.packed, 0);
  const unpacked = sizes.reduce((n, s) => n + s.unpacked, 0);
  const lines = ['| package | MiB | of which unpacked |', '|---|---:|---:|'];
  for (const s of sizes.slice(0, rows))
    lines.push(`| ${s.name} | ${mib(s.packed + s.unpacked)} | ${mib(s.unpacked)} |`);
  lines.push(
    `| **total** (app.asar ${mib(packed)} + unpacked ${mib(unpacked)}) | **${totalLine(packed + unpacked)}** | |`,
  );
  return lines.join('\n');
}

/** Changes smaller than this are summed on one line rather than listed. */
const SMALL_CHANGE = 0.1 * MIB;

/**
 * Two builds side by side: the largest packages of either and every package whose size changed by SMALL_CHANGE or more
 * (gone, new, smaller or larger), the smaller changes summed on one line, then the totals.
 */
export function compareTable(before: PackageSize[], after: PackageSize[], rows: number): string {
  const size = (list: PackageSize[], name: string): number => {
    const row = list.find((s) => s.name === name);
    return row ? row.packed + row.unpacked : 0;
  };
  const largest = [...before.slice(0, rows), ...after.slice(0, rows)].map((s) => s.name);
  const all = [...new Set([...before, ...after].map((s) => s.name))];
  const changed = all.filter((n) => Math.abs(size(after, n) - size(before, n)) >= SMALL_CHANGE);
  const names = [...new Set([...largest, ...changed])].sort(
    (a, b) => Math.max(size(before, b), size(after, b)) - Math.max(size(before, a), size(after, a)),
  );
  const lines = ['| package | before MiB | after MiB | change MiB |', '|---|---:|---:|---:|'];
  for (const name of names) {
    const [was, now] = [size(before, name), size(after, name)];
    lines.push(
      `| ${name} | ${mib(was)} | ${mib(now)} | ${now === was ? '' : `${now > was ? '+' : ''}${mib(now - was)}`} |`,
    );
  }
  const small = all.filter((n) => !names.includes(n) && size(before, n) !== size(after, n));
  if (small.length > 0) {
    const change = small.reduce((sum, n) => sum + size(after, n) - size(before, n), 0);
    lines.push(
      `| (${small.length} more packages, each changed by less than ${mib(SMALL_CHANGE)}) | | | ${mib(change)} |`,
    );
  }
  const [was, now] = [total(before), total(after)];
  lines.push(`| **total** | **${totalLine(was)}** | **${totalLine(now)}** | **${mib(now - was)}** |`);
  return lines.join('\n');
}

const sizesOf = (resources: string): PackageSize[] => packageSizes(asarFiles(join(resources, 'app.asar')));

if (process.argv[1] === import.meta.filename) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--before');
  const before = at >= 0 ? args.splice(at, 2)[1] : undefined;
  const [resources, rows = '15'] = args;
  if (!resources || (at >= 0 && !before) || !/^\d+$/.test(rows)) {
    console.error(
      'usage: npm run package-sizes -- <packaged app resources folder, e.g. dist/linux-unpacked/resources> [rows] ' +
        "[--before <another build's resources folder>]",
    );
    process.exit(2);
  }
  console.log(
    before
      ? compareTable(sizesOf(before), sizesOf(resources), Number(rows))
      : sizeTable(sizesOf(resources), Number(rows)),
  );
}
