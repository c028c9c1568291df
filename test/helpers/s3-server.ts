import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { tempDir } from './temp';

/**
 * s3rver (npm) rather than moto_server (PyPI): CI installs from npm and Debian only. It speaks what the service uses
 * (signed v4 requests, multipart uploads, Range GETs, ListObjectsV2, DeleteObjects) and keeps objects on disk.
 */
const S3RVER_CLI = join(dirname(createRequire(import.meta.url).resolve('s3rver/package.json')), 'bin', 's3rver.js');
/** s3rver's one account. */
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** The service's storage.s3 config for this server. */
  config: { endpoint: string; bucket: string; region: string; forcePathStyle: boolean };
  /** The AWS_* environment variables the service reads its credentials from. */
  env: Record<string, string>;
  /** Process id of s3rver (its own process, so a test measuring memory measures only its own). */
  pid: number;
  /** Keys of the objects under a prefix, sorted. */
  keys(prefix?: string): Promise<string[]>;
  stop(): Promise<void>;
}

/** s3rver on 127.0.0.1 (any free port), objects in a temporary folder, with one empty bucket. */
export async function startS3Server(bucket = 'reelsync-test'): Promise<TestS3Server> {
  const { dir, cleanup } = await tempDir('reelsync-s3-');
  const child: ChildProcess = spawn(
    process.execPath,
    [S3RVER_CLI, '-d', dir, '-a', '127.0.0.1', '-p', '0', '--silent', '--no-vhost-buckets'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-5000)));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      await gone;
    }
    await cleanup();
  };
  try {
    const endpoint = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /listening on ([\d.]+):(\d+)/.exec(out);
        if (m) resolve(`http://${m[1]}:${m[2]}`);
      });
      child.once('exit', (code) => reject(new Error(`s3rver exited with ${code}: ${stderr}`)));
    });
    const region = 'us-east-1';
    const client = new S3Client({ endpoint, region, forcePathStyle: true, credentials: CREDENTIALS });
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    return {
      endpoint,
      bucket,
      config: { endpoint, bucket, region, forcePathStyle: true },
      env: { AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey },
      pid: child.pid ?? -1,
      keys: async (prefix) => {
        const found: string[] = [];
        for (let token: string | undefined, more = true; more;) {
          const page = await client.send(
            new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
          );
          for (const o of page.Contents ?? []) if (o.Key) found.push(o.Key);
          token = page.NextContinuationToken;
          more = page.IsTruncated === true && token !== undefined;
        }
        return found.sort();
      },
      stop: async () => {
        client.destroy();
        await stop();
      },
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
