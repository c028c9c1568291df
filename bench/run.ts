import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { formatComparison, isFigure, type Benchmark } from './harness';

process.env.REELSYNC_LOG ??= 'warn';

/** `npm run bench -- NAME`: runs bench/NAME.bench.ts, which measures itself and its baseline in this same run. */
async function main(): Promise<void> {
  const available = (await readdir(import.meta.dirname))
    .filter((f) => f.endsWith('.bench.ts'))
    .map((f) => f.replace('.bench.ts', ''));
  const names = process.argv.slice(2);
  if (names.length === 0 || names.some((n) => !available.includes(n))) {
    process.stderr.write(`usage: npm run bench -- NAME...\navailable: ${available.join(', ')}\n`);
    process.exit(2);
  }
  for (const name of names) {
    const mod = (await import(pathToFileURL(join(import.meta.dirname, `${name}.bench.ts`)).href)) as {
      default: Benchmark;
    };
    process.stdout.write(`# ${mod.default.name}: ${mod.default.description}\n`);
    for (const result of await mod.default.run()) {
      process.stdout.write(
        isFigure(result)
          ? `${result.what}\n${result.lines.map((l) => `  ${l}`).join('\n')}\n`
          : `${formatComparison(result)}\n`,
      );
    }
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
