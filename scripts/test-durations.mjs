// Writes test/durations.json from the last whole-suite run's report (test-artifacts/vitest.json), so a fresh clone runs
// the longest files first (vitest keeps its own timings only in a local cache): run after `npm test`, commit the file.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const report = JSON.parse(readFileSync(process.argv[2] ?? join(root, 'test-artifacts', 'vitest.json'), 'utf8'));
const seconds = Object.fromEntries(
  report.testResults
    // Names are absolute paths of the clone the report came from: keep the part from src/ or test/ on.
    .map((file) => [
      file.name.slice(file.name.search(/\/(src|test)\//) + 1),
      Math.round((file.endTime - file.startTime) / 100) / 10,
    ])
    .sort(([a], [b]) => (a < b ? -1 : 1)),
);
writeFileSync(join(root, 'test', 'durations.json'), `${JSON.stringify(seconds, null, 2)}\n`);
console.log(`test/durations.json: ${Object.keys(seconds).length} files`);
