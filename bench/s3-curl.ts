import { execFile } from 'node:child_process';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TestS3Server } from '../test/helpers/s3-server';

const run = promisify(execFile);

/** curl's own SigV4 signing against the test s3rver, unsigned payloads (as the service sends over plain HTTP). */
function signed(s3: TestS3Server): string[] {
  return [
    '-sS',
    '--aws-sigv4',
    `aws:amz:${s3.config.region}:s3`,
    '--user',
    `${s3.env.AWS_ACCESS_KEY_ID}:${s3.env.AWS_SECRET_ACCESS_KEY}`,
    '-H',
    'x-amz-content-sha256: UNSIGNED-PAYLOAD',
  ];
}

/** One object, one PUT: the cheapest way into S3, and one s3rver writes once. */
export async function curlPut(s3: TestS3Server, file: string, key: string): Promise<void> {
  const { stdout } = await run('curl', [
    ...signed(s3),
    ...['-o', '/dev/null', '-w', '%{http_code}', '-T', file],
    `${s3.endpoint}/${s3.bucket}/${key}`,
  ]);
  if (stdout !== '200') throw new Error(`curl PUT answered ${stdout}`);
}

/** `file` cut into `partBytes` pieces in `dir` (made before the clock starts: curl cannot send a byte range of a file). */
export async function splitParts(file: string, partBytes: number, dir: string): Promise<string[]> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await run('split', ['-b', String(partBytes), '-d', '-a', '5', file, join(dir, 'part-')]);
  return (await readdir(dir)).sort().map((name) => join(dir, name));
}

/**
 * The same multipart upload the service makes (S3PartWriter), made by curl: create, the parts `inFlight` at a time,
 * complete. s3rver stores each part, then on completion reads them all back into the object, so this is the like-for-
 * like baseline of an upload whose length is not known when it starts.
 */
export async function curlMultipart(s3: TestS3Server, parts: string[], key: string, inFlight: number): Promise<void> {
  const url = `${s3.endpoint}/${s3.bucket}/${key}`;
  const created = await run('curl', [...signed(s3), '-X', 'POST', `${url}?uploads`]);
  const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(created.stdout)?.[1];
  if (!uploadId) throw new Error(`curl CreateMultipartUpload answered ${created.stdout.slice(0, 300)}`);
  const etags: string[] = [];
  let next = 0;
  const sender = async (): Promise<void> => {
    for (let i = next++; i < parts.length; i = next++) {
      const { stdout } = await run('curl', [
        ...signed(s3),
        ...['-o', '/dev/null', '-w', '%{http_code} %header{etag}', '-T', parts[i]!],
        `${url}?partNumber=${i + 1}&uploadId=${encodeURIComponent(uploadId)}`,
      ]);
      const [status, etag] = stdout.split(' ');
      if (status !== '200' || !etag) throw new Error(`curl UploadPart ${i + 1} answered ${stdout}`);
      etags[i] = etag;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, sender));
  const body = `<CompleteMultipartUpload>${etags
    .map((etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${etag}</ETag></Part>`)
    .join('')}</CompleteMultipartUpload>`;
  const done = await run('curl', [
    ...signed(s3),
    ...['-X', 'POST', '-H', 'content-type: application/xml', '--data-binary', body],
    `${url}?uploadId=${encodeURIComponent(uploadId)}`,
  ]);
  if (!done.stdout.includes('<CompleteMultipartUploadResult')) {
    throw new Error(`curl CompleteMultipartUpload answered ${done.stdout.slice(0, 300)}`);
  }
}
