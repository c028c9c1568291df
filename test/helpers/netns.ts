import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, it } from 'vitest';
import { tempDir } from './temp';

const root = join(import.meta.dirname, '../..');
const INSIDE = 'REELSYNC_LOOPBACK_NETNS';

/** Interface names of the current network namespace (from netlink: /sys/class/net shows the mounter's namespace). */
export function interfaceNames(): string[] {
  return execFileSync('ip', ['-o', 'link', 'show'], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((line) => /^\d+:\s+([^:@\s]+)/.exec(line)?.[1] ?? line);
}

interface InnerReport {
  numTotalTests: number;
  numPassedTests: number;
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
  }[];
}

/**
 * Tests that can make the service connect to a non-loopback address (a public IP named in an attack URL, a host a
 * correct fix may try) run only inside a fresh network namespace whose one interface is loopback, so no packet can
 * leave the machine. `aliases` are extra addresses put on lo there (e.g. 8.8.8.8) to stand for public hosts that tests
 * serve themselves.
 *
 * Run from vitest or npm test, the file registers one test that re-runs that same file under
 * `unshare -n sh -c 'ip link set lo up && ...'`, checks with `ip -o addr` that lo is the only interface, and fails
 * with the inner failures. Where unshare is not permitted it fails under CI=true (CI runs as root) and is skipped
 * elsewhere. Inside, `body` declares the tests as usual, after checking again that only lo exists.
 */
export function describeInLoopbackNamespace(name: string, testFile: string, aliases: string[], body: () => void): void {
  const file = relative(root, testFile);
  if (process.env[INSIDE] === file) {
    const names = interfaceNames();
    if (names.join(',') !== 'lo')
      throw new Error(`${file} must run in a loopback-only network namespace; interfaces here: ${names.join(', ')}`);
    describe(name, body);
    return;
  }
  const probe = spawnSync('unshare', ['-n', 'true'], { encoding: 'utf8' });
  const permitted = probe.status === 0;
  const ci = process.env.CI === 'true';
  describe(name, () => {
    it.skipIf(!permitted && !ci)(
      'runs its tests in a network namespace where loopback is the only interface',
      async () => {
        if (!permitted)
          throw new Error(
            `unshare -n is not permitted here (${(probe.stderr || probe.error?.message || '').trim()}): CI must run ${file} as root`,
          );
        const { dir, cleanup } = await tempDir('reelsync-netns-');
        try {
          const report = join(dir, 'report.json');
          const setup = [
            'ip link set lo up',
            ...aliases.map((a) => `ip addr add ${a}/32 dev lo`),
            'ip -o addr show',
            'exec "$@"',
          ].join(' && ');
          const vitest = join(root, 'node_modules', '.bin', 'vitest');
          const { code, stdout, stderr } = await run(
            'unshare',
            ['-n', 'sh', '-c', setup, 'sh', vitest, 'run', file, '--reporter=json', `--outputFile.json=${report}`],
            {
              ...process.env,
              [INSIDE]: file,
            },
          );
          const devices = new Set(
            stdout.split('\n').flatMap((line) => /^\d+:\s+(\S+)\s+inet6?\s/.exec(line)?.[1] ?? []),
          );
          if ([...devices].join(',') !== 'lo')
            throw new Error(`the namespace has interfaces other than lo: ${[...devices].join(', ')}\n${stdout}`);
          const inner = JSON.parse(await readFile(report, 'utf8').catch(() => 'null')) as InnerReport | null;
          if (!inner) throw new Error(`the namespaced run wrote no report (exit ${code}): ${stderr.slice(-4000)}`);
          const failures = inner.testResults.flatMap((f) => [
            ...(f.status === 'failed' && f.assertionResults.every((a) => a.status !== 'failed')
              ? [`${f.name}: ${f.message ?? 'suite failed'}`]
              : []),
            ...f.assertionResults
              .filter((a) => a.status === 'failed')
              .map((a) => `${a.fullName}: ${a.failureMessages.join('\n').slice(0, 1500)}`),
          ]);
          const summary = inner.testResults.flatMap((f) =>
            f.assertionResults.map((a) => `  ${a.status === 'passed' ? 'ok  ' : a.status.padEnd(4)} ${a.fullName}`),
          );
          process.stdout.write(
            `${file} in a loopback-only namespace (${aliases.join(', ') || 'no aliases'} on lo):\n${summary.join('\n')}\n`,
          );
          if (failures.length > 0 || code !== 0)
            throw new Error(`${failures.length} failed in the namespace (exit ${code}):\n${failures.join('\n\n')}`);
          if (inner.numPassedTests === 0) throw new Error('no test ran in the namespace');
        } finally {
          await cleanup();
        }
      },
      600_000,
    );
  });
}

function run(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-20_000)));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
