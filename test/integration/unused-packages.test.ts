// build/unused-packages.ts: which production packages are reached only through packages the app never loads.
import { describe, expect, it } from 'vitest';
import { packagesOnlyUnder } from '../../build/unused-packages';

/** A lockfile: the project depends on `app` and `tool`; `shared` is used by both, `only-tool` by `tool` alone. */
const lock = JSON.stringify({
  packages: {
    '': { dependencies: { app: '1', tool: '1' }, devDependencies: { dev: '1' } },
    'node_modules/app': { dependencies: { shared: '1' } },
    'node_modules/tool': { dependencies: { shared: '1', 'only-tool': '1', nested: '2' } },
    'node_modules/shared': {},
    'node_modules/only-tool': { optionalDependencies: { 'deep-tool': '1' } },
    'node_modules/deep-tool': {},
    // Two copies of `nested`: tool's own 2.x and app's hoisted 1.x, which app does not use.
    'node_modules/tool/node_modules/nested': {},
    'node_modules/nested': {},
    'node_modules/dev': { dev: true, dependencies: { 'only-tool': '1' } },
  },
});

describe('packagesOnlyUnder', () => {
  it('names the unused root and what only it pulls in, through optional dependencies and nested copies', () => {
    expect(packagesOnlyUnder(lock, ['tool'])).toEqual(['deep-tool', 'nested', 'only-tool', 'tool']);
  });

  it('keeps a package some live package still depends on, and every copy of a name one live copy has', () => {
    const withAppUsingNested = JSON.parse(lock) as { packages: Record<string, { dependencies?: object }> };
    withAppUsingNested.packages['node_modules/app'] = { dependencies: { shared: '1', nested: '1' } };
    expect(packagesOnlyUnder(JSON.stringify(withAppUsingNested), ['tool'])).toEqual(['deep-tool', 'only-tool', 'tool']);
  });

  it('leaves everything in when no root is unused', () => {
    expect(packagesOnlyUnder(lock, [])).toEqual([]);
  });
});
