// scripts/package-sizes.ts: per-package sizes of a packaged app and the comparison of two builds.
import { describe, expect, it } from 'vitest';
import { compareTable, packageSizes, sizeTable, topLevelOwner } from '../../scripts/package-sizes';

const MIB = 1024 * 1024;
const before = packageSizes([
  { path: 'node_modules/big/bin/tool', size: 70 * MIB, unpacked: true },
  { path: 'node_modules/@scope/gone/index.js', size: 1.2 * MIB, unpacked: false },
  { path: 'node_modules/big/node_modules/nested/a.js', size: 0.5 * MIB, unpacked: false },
  { path: 'node_modules/tiny/index.js', size: 0.04 * MIB, unpacked: false },
  { path: 'out/main/index.js', size: 2 * MIB, unpacked: false },
]);
const after = packageSizes([
  { path: 'node_modules/big/bin/tool', size: 70 * MIB, unpacked: true },
  { path: 'node_modules/big/node_modules/nested/a.js', size: 0.2 * MIB, unpacked: false },
  { path: 'out/main/index.js', size: 2 * MIB, unpacked: false },
]);

describe('package sizes', () => {
  it('counts a nested package with its outermost package, scoped names whole', () => {
    expect(topLevelOwner('node_modules/big/node_modules/nested/a.js')).toBe('node_modules/big');
    expect(topLevelOwner('node_modules/@scope/gone/index.js')).toBe('node_modules/@scope/gone');
    expect(before[0]).toEqual({ name: 'node_modules/big', packed: 0.5 * MIB, unpacked: 70 * MIB });
  });

  it('totals in MiB and in decimal MB, the unit the size goal is set in', () => {
    expect(sizeTable(before, 2)).toContain('| **total** (app.asar 3.7 + unpacked 70.0) | **73.7 MiB = 77.3 MB** | |');
  });

  it('sets two builds side by side: changes listed, the small ones summed, totals', () => {
    const table = compareTable(before, after, 1).split('\n');
    expect(table).toEqual([
      '| package | before MiB | after MiB | change MiB |',
      '|---|---:|---:|---:|',
      '| node_modules/big | 70.5 | 70.2 | -0.3 |',
      '| node_modules/@scope/gone | 1.2 | 0.0 | -1.2 |',
      '| (1 more packages, each changed by less than 0.1) | | | -0.0 |',
      '| **total** | **73.7 MiB = 77.3 MB** | **72.2 MiB = 75.7 MB** | **-1.5** |',
    ]);
  });
});
