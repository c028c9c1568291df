import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors';
import { z } from 'zod';
import { formatZodError, HandlerRegistry } from './registry';

const registry = (): HandlerRegistry => new HandlerRegistry(pino({ level: 'silent' }));

describe('HandlerRegistry', () => {
  it('validates the request and returns the value as data', async () => {
    const r = registry();
    const seen: { text: string; limit: number }[] = [];
    r.handle('clips:search', ({ text, limit }) => (seen.push({ text, limit }), { clips: [] }));
    expect(await r.invoke('clips:search', { text: ' hi ' })).toEqual({ ok: true, value: { clips: [] } });
    expect(seen).toEqual([{ text: 'hi', limit: 100 }]);
  });

  it('answers a bad request with a clear error, without calling the handler', async () => {
    const r = registry();
    let called = false;
    r.handle('clips:search', () => {
      called = true;
      return { clips: [] };
    });
    const res = await r.invoke('clips:search', { text: 42 });
    expect(res).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(!res.ok && res.error.message).toMatch(/^text: /);
    expect(await r.invoke('clips:search', { text: 'x', extra: true })).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
    expect(called).toBe(false);
  });

  it('refuses unknown channels and unregistered ones', async () => {
    const r = registry();
    expect(await r.invoke('fs:readFile', {})).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
    expect(await r.invoke('app:info', {})).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
    expect(await r.invoke('__proto__', {})).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
  });

  it('refuses a second handler for the same channel', () => {
    const r = registry();
    r.handle('clips:search', () => ({ clips: [] }));
    expect(() => r.handle('clips:search', () => ({ clips: [] }))).toThrow(/twice/);
    expect(() => r.register({ 'clips:search': () => ({ clips: [] }) })).toThrow(/twice/);
  });

  it('turns thrown errors into error data', async () => {
    const r = registry();
    r.handle('clips:search', () => {
      throw new AppError('conflict', 'busy');
    });
    expect(await r.invoke('clips:search', { text: 'a' })).toEqual({
      ok: false,
      error: { code: 'conflict', message: 'busy' },
    });
    const r2 = registry();
    r2.handle('clips:search', () => {
      throw new Error('outer', { cause: new Error('inner') });
    });
    expect(await r2.invoke('clips:search', { text: 'a' })).toEqual({
      ok: false,
      error: { code: 'internal', message: 'outer: caused by: inner' },
    });
  });

  it('checks responses against the contract too', async () => {
    const r = registry();
    r.handle('sync:retry', () => ({ requeued: 1.5 }));
    expect(await r.invoke('sync:retry', {})).toMatchObject({ ok: false, error: { code: 'internal' } });
  });
});

describe('refusals in words (issue 28 item 8)', () => {
  it('names a list item by its place and a field by its name, never "paths.0:"', () => {
    const schema = z.object({
      paths: z.array(z.string().refine((p) => p.startsWith('/'), { message: 'give the full path' })),
      uploadConcurrency: z.number().max(8),
    });
    const parsed = schema.safeParse({ paths: ['/ok', 'relative/dir'], uploadConcurrency: 12 });
    if (parsed.success) throw new Error('should be refused');
    const words = formatZodError(parsed.error);
    expect(words).toContain('the 2nd path: give the full path');
    expect(words).toContain('upload concurrency: ');
    expect(words).not.toMatch(/paths\.\d/);
  });
});
