import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFaultScenario, type FaultScenarioResult } from '../test/helpers/fault-scenario';
import { compare, type Benchmark, type BenchResult } from './harness';

const FILES = Number(process.env.REELSYNC_FAULT_FILES ?? 200);
const RATES = { reset: 0.05, stall: 0.03, slow: 0.05, error5xx: 0.05, rateLimit: 0.05, truncate: 0.05 };

async function scenario(rates: Partial<typeof RATES>, seed: number): Promise<FaultScenarioResult> {
  const dir = await mkdtemp(join(tmpdir(), 'reelsync-faults-bench-'));
  try {
    return await runFaultScenario({
      dir,
      uploads: FILES,
      downloads: FILES,
      rates,
      seed,
      targets: /\/(upload|list_videos|download)$/,
      timeoutMs: 900_000,
      log: (l) => process.stderr.write(`${l}\n`),
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const bench: Benchmark = {
  name: 'faults',
  description: `${FILES} uploads (sync engine) + ${FILES} downloads (download manager) through a fault-injecting proxy, against the same run with no faults`,
  async run() {
    const clean = await scenario({}, 1);
    const faulty = await scenario(RATES, 20261122);
    const results: BenchResult[] = [];
    for (const [label, r] of [
      ['no faults', clean],
      ['faults', faulty],
    ] as const) {
      results.push({
        what: `${label}: ${r.uploaded}/${FILES} uploaded, ${r.downloadsDone}/${FILES} downloaded`,
        lines: [
          `faults injected: ${Object.entries(r.faults)
            .filter(([k]) => k !== 'passed')
            .map(([k, n]) => `${k} ${n}`)
            .join(', ')} (${r.faults.passed} requests passed untouched)`,
          `upload requests ${r.uploadRequests} for ${FILES} files (${r.uploadRequests - FILES} retries); download requests ${r.downloadRequests} (${r.downloadRequests - FILES} resumes/retries)`,
          `duplicates ${r.duplicates.length}, missing ${r.missing.length}, failed uploads ${r.failedUploads.length}, corrupt downloads ${r.corrupt.length}, failed downloads ${r.failedDownloads.length}`,
          ...[...r.duplicates, ...r.missing, ...r.failedUploads, ...r.corrupt, ...r.failedDownloads].slice(0, 10),
          `upload phase ${(r.uploadMs / 1000).toFixed(1)} s, download phase ${(r.downloadMs / 1000).toFixed(1)} s`,
        ],
      });
    }
    results.push(
      compare(
        'uploads under faults',
        { label: 'faults', seconds: faulty.uploadMs / 1000, amount: FILES, unit: 'files' },
        { label: 'no faults', seconds: clean.uploadMs / 1000, amount: FILES, unit: 'files' },
      ),
    );
    results.push(
      compare(
        'downloads under faults',
        { label: 'faults', seconds: faulty.downloadMs / 1000, amount: FILES, unit: 'files' },
        { label: 'no faults', seconds: clean.downloadMs / 1000, amount: FILES, unit: 'files' },
      ),
    );
    const bad =
      faulty.duplicates.length +
      faulty.missing.length +
      faulty.failedUploads.length +
      faulty.corrupt.length +
      faulty.failedDownloads.length;
    if (bad > 0) process.exitCode = 1;
    return results;
  },
};

export default bench;
