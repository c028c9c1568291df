import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const root = join(import.meta.dirname, '..');
/** Sorts files not timed yet before every timed one. */
const UNTIMED = 1e9;

/** Seconds each file took in the last whole-suite run (scripts/test-durations.mjs writes them). */
function lastDurations(): Map<string, number> {
  try {
    const seconds: unknown = JSON.parse(readFileSync(join(import.meta.dirname, 'durations.json'), 'utf8'));
    if (typeof seconds !== 'object' || seconds === null) return new Map();
    return new Map(Object.entries(seconds).filter((e): e is [string, number] => typeof e[1] === 'number'));
  } catch {
    return new Map();
  }
}

/**
 * Runs the files that took longest last time first, so the suite does not end on one long file running alone while the
 * other worker idles (a fresh clone has no vitest cache, whose default order there is by file size). Files not timed
 * yet go first: they may be long.
 */
export class LongestFirst extends BaseSequencer {
  private readonly seconds = lastDurations();

  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const known = (spec: TestSpecification): number =>
      this.seconds.get(relative(root, spec.moduleId).split('\\').join('/')) ?? UNTIMED;
    return Promise.resolve([...files].sort((a, b) => known(b) - known(a)));
  }
}
