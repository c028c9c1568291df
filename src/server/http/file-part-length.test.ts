import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { watchFilePartLength } from './file-part-length';

const run = promisify(execFile);

/** A server that foresees the file part's length of each request, then reads the body and answers. */
let server: Server;
let url: string;
let dir: string;
let cleanup: () => Promise<void>;
const seen: { foreseen: number | null }[] = [];

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('reelsync-part-length-'));
  server = createServer((req: IncomingMessage, res) => {
    const foreseen = watchFilePartLength(req);
    req.resume();
    req.on('end', () => {
      seen.push({ foreseen: foreseen() });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/upload`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await cleanup();
});

const FILE = Buffer.alloc(3 * 1024 * 1024 + 17, 'v');

describe('watchFilePartLength', () => {
  it('foresees the file length of fetch FormData with fields before the file, across many body chunks', async () => {
    const form = new FormData();
    form.append('metadata', JSON.stringify({ title: 'a "quoted" title\r\nwith a line break' }));
    form.append('folder', 'rushes');
    form.append('file', new Blob([FILE], { type: 'video/mp4' }), 'take 1.mp4');
    await fetch(url, { method: 'POST', body: form });
    expect(seen.at(-1)?.foreseen).toBe(FILE.length);
  });

  it("foresees the file length of curl -F, the command line's multipart", async () => {
    const path = join(dir, 'take.mov');
    await writeFile(path, FILE);
    await run('curl', ['-sS', '-F', 'tags=a', '-F', `file=@${path};type=video/quicktime`, url]);
    expect(seen.at(-1)?.foreseen).toBe(FILE.length);
  });

  it('guesses wrong (for the store to notice) when a field follows the file, and gives up without a file part', async () => {
    const after = new FormData();
    after.append('file', new Blob([FILE], { type: 'video/mp4' }), 'take.mp4');
    after.append('folder', 'rushes');
    await fetch(url, { method: 'POST', body: after });
    expect(seen.at(-1)?.foreseen).not.toBe(FILE.length);

    const none = new FormData();
    none.append('folder', 'rushes');
    await fetch(url, { method: 'POST', body: none });
    expect(seen.at(-1)?.foreseen).toBeNull();

    await fetch(url, { method: 'POST', body: 'not multipart', headers: { 'content-type': 'text/plain' } });
    expect(seen.at(-1)?.foreseen).toBeNull();
  });
});
