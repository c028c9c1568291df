import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { photoPath } from '../fixtures/media';
import { apiClient, type ApiClient } from '../helpers/api';
import type { TestService } from '../helpers/service';
import { useService } from '../helpers/use-service';
import { tempDir } from '../helpers/temp';

/** A real PNG of width x height RGB pixels, all black: a few hundred KB that decode to width x height x 3 bytes. */
function blackPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  // Each row: filter byte 0 then the pixels.
  const rows = Buffer.alloc((1 + width * 3) * height);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Resident memory of the service process, from /proc. */
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0) / 1024;
}

/** The test account's balance, read from the service's database file. */
function balance(dataDir: string): number {
  const db = new Database(join(dataDir, 'service.db'), { readonly: true });
  try {
    return z
      .object({ balance_micro: z.number() })
      .parse(db.prepare("SELECT balance_micro FROM accounts WHERE name = 'test'").get()).balance_micro;
  } finally {
    db.close();
  }
}

type Page = { total_count: number; faces_in_query: number };

describe('photo search refuses images over the pixel budget before decoding (issue 14 item 5)', () => {
  let service: TestService;
  let api: ApiClient;
  let dir: { dir: string; cleanup(): Promise<void> };

  const testService = useService({ config: { limits: { searchPerSecond: 1000 } } });
  beforeAll(async () => {
    service = testService();
    api = apiClient(service.baseUrl, service.key);
    dir = await tempDir('reelsync-image-bomb-');
  }, 120_000);

  afterAll(async () => {
    await dir?.cleanup();
  });

  const searchBy = (file: string) =>
    api.upload<Page>(file, {}, { contentType: 'image/png', path: '/search_image', filename: 'query.png' });

  it('still finds faces in a normal photo, answering other requests while it detects them', async () => {
    // The first photo search loads the detection models (seconds): on the HTTP thread nothing else would be answered.
    let done = false;
    const search = searchBy(await photoPath('astronaut')).finally(() => (done = true));
    const answers: number[] = [];
    while (!done) {
      const start = performance.now();
      expect((await api.get('/folders')).status).toBe(200);
      if (!done) answers.push(performance.now() - start);
    }
    const res = await search;
    expect(res.status).toBe(200);
    expect(res.json.data!.faces_in_query).toBeGreaterThan(0);
    answers.sort((a, b) => a - b);
    console.log(
      `during the first photo search: ${answers.length} GET /folders answered, median ${answers[Math.floor(answers.length / 2)]?.toFixed(1)} ms`,
    );
    expect(answers.length).toBeGreaterThanOrEqual(5);
    expect(answers[Math.floor(answers.length / 2)]).toBeLessThan(100);
  });

  it('refuses the 640x65000 PNG fast, and the service does not grow', async () => {
    const bomb = join(dir.dir, 'bomb.png');
    const png = blackPng(640, 65_000);
    await writeFile(bomb, png);
    expect(png.length).toBeLessThan(400 * 1024);
    // The baseline includes the detection models the normal photo loaded.
    await searchBy(await photoPath('coffee'));
    const before = rssMb(service.pid);
    const paid = balance(service.dataDir);
    for (let i = 0; i < 3; i++) {
      const start = performance.now();
      const res = await searchBy(bomb);
      const ms = performance.now() - start;
      expect(res.status).toBe(400);
      expect(res.json.msg).toMatch(/640x65000 \(41\.6 megapixels\); at most 40\.0 megapixels/);
      expect(ms).toBeLessThan(1000);
    }
    const grown = rssMb(service.pid) - before;
    console.log(
      `three 640x65000 PNG queries refused; service RSS ${before.toFixed(0)} MB -> ${(before + grown).toFixed(0)} MB`,
    );
    expect(grown).toBeLessThan(40);
    expect(balance(service.dataDir)).toBe(paid);
  });

  it('shrinks a tall image within the budget before detection, so memory stays flat', async () => {
    const strip = join(dir.dir, 'strip.png');
    await writeFile(strip, blackPng(640, 20_000));
    const before = rssMb(service.pid);
    const res = await searchBy(strip);
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ faces_in_query: 0, total_count: 0 });
    const grown = rssMb(service.pid) - before;
    console.log(`a 640x20000 PNG searched; service RSS grew ${grown.toFixed(0)} MB`);
    expect(grown).toBeLessThan(60);
  });

  it('refuses bytes that are no image format it reads, whatever their Content-Type says', async () => {
    const playlist = join(dir.dir, 'list.png');
    await writeFile(playlist, '#EXTM3U\n#EXTINF:1,\nfile:///etc/passwd\n');
    const res = await searchBy(playlist);
    expect(res.status).toBe(400);
    expect(res.json.msg).toMatch(/must be a JPEG, PNG, WebP, GIF or BMP file/);
  });
});
