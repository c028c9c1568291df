import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type TestS3Server } from '../../../test/helpers/s3-server';
import { openS3Client } from './s3-client';
import { S3StreamedPut } from './s3-streamed-put';

let s3: TestS3Server;
let client: S3Client;
beforeAll(async () => {
  s3 = await startS3Server();
  client = openS3Client(s3.config, {
    accessKeyId: s3.env.AWS_ACCESS_KEY_ID!,
    secretAccessKey: s3.env.AWS_SECRET_ACCESS_KEY!,
  });
});
afterAll(async () => {
  client?.destroy();
  await s3?.stop();
});

const BODY = Buffer.alloc(9 * 1024 * 1024 + 3);
for (let i = 0; i + 4 <= BODY.length; i += 4096) BODY.writeUInt32BE(i, i);
const chunks = (body: Buffer): Readable =>
  Readable.from(
    Array.from({ length: Math.ceil(body.length / 65536) }, (_, i) => body.subarray(i * 65536, (i + 1) * 65536)),
  );

describe('S3StreamedPut', () => {
  it('stores the bytes with one PUT when they are as many as foreseen', async () => {
    const put = new S3StreamedPut({ client, bucket: s3.bucket, key: 'one/put.mp4', expectedBytes: BODY.length });
    await pipeline(chunks(BODY), put);
    expect(await put.stored()).toBe(true);
    const got = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: 'one/put.mp4' }));
    expect(Buffer.compare(await buffer(got.Body as Readable), BODY)).toBe(0);
  });

  it('says it did not store when fewer bytes come, without failing its writer side', async () => {
    const put = new S3StreamedPut({ client, bucket: s3.bucket, key: 'one/short.mp4', expectedBytes: BODY.length + 1 });
    await pipeline(chunks(BODY), put);
    expect(await put.stored()).toBe(false);
    // (s3rver keeps what came before the abort where S3 would not: the receiver stores the staged copy over it.)
  });

  it('says it did not store when more bytes come than foreseen', async () => {
    const put = new S3StreamedPut({ client, bucket: s3.bucket, key: 'one/long.mp4', expectedBytes: BODY.length - 1 });
    await pipeline(chunks(BODY), put);
    expect(await put.stored()).toBe(false);
  });
});
