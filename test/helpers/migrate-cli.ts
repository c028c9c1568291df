import { spawn } from 'node:child_process';
import pg from 'pg';
import type { TestS3Server } from './s3-server';
import { SERVICE_CLI, type TestService } from './service';

// `service -- migrate-to` as the tests run it: a child process of the built CLI, on a stopped library.

/** What a run printed and how it ended. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment without any AWS_* variable of the test process, plus `extra`. */
export function envWith(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('AWS_')));
  return { ...env, ...extra };
}

export function migrateArgs(dataDir: string, database: string, s3: TestS3Server): string[] {
  return [
    ...[SERVICE_CLI, 'migrate-to', '--data', dataDir, '--database', database],
    ...['--s3-endpoint', s3.endpoint, '--s3-bucket', s3.bucket, '--s3-region', 'us-east-1', '--s3-force-path-style'],
  ];
}

/** Runs migrate-to; `killWhen` SIGKILLs it as soon as its output matches. */
export function runMigrate(
  args: string[],
  env: NodeJS.ProcessEnv,
  killWhen?: RegExp,
): Promise<CliRun & { killed: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let killed = false;
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (killWhen && !killed && killWhen.test(stdout)) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('close', (code) => {
      if (process.env.REELSYNC_TEST_SERVICE_LOG) process.stderr.write(`migrate-to ${code}:\n${stdout}${stderr}\n`);
      resolve({ code, stdout, stderr, killed });
    });
  });
}

export async function query<T>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

export async function count(url: string, table: string): Promise<number> {
  const [row] = await query<{ n: string }>(url, `SELECT COUNT(*) AS n FROM ${table}`);
  return Number(row?.n);
}

/** Stops the service and keeps its data folder (TestService.stop removes it). */
export async function stopKeepingData(service: TestService): Promise<void> {
  process.kill(service.pid, 'SIGTERM');
  for (;;) {
    try {
      process.kill(service.pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
