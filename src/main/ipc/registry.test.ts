import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors';
import { HandlerRegistry } from './registry';

const registry = (): HandlerRegistry => new HandlerRegistry(pino({ level: 'silent' }));

describe('HandlerRegistry', () => {
  it('validates the request and returns the value as data', async () => {
    const r = registry();
    r.handle('app:echo', ({ text }) => ({ text: text.toUpperCase(), receivedAt: 1 }));
    expect(await r.invoke('app:echo', { text: 'hi' })).toEqual({ ok: true, value: { text: 'HI', receivedAt: 1 } });
  });

  it('answers a bad request with a clear error, without calling the handler', async () => {
    const r = registry();
    let called = false;
    r.handle('app:echo', ({ text }) => {
      called = true;
      return { text, receivedAt: 1 };
    });
    const res = await r.invoke('app:echo', { text: 42 });
    expect(res).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(!res.ok && res.error.message).toMatch(/^text: /);
    expect(await r.invoke('app:echo', { text: 'x', extra: true })).toMatchObject({
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
    r.handle('app:echo', ({ text }) => ({ text, receivedAt: 1 }));
    expect(() => r.handle('app:echo', ({ text }) => ({ text, receivedAt: 2 }))).toThrow(/twice/);
  });

  it('turns thrown errors into error data', async () => {
    const r = registry();
    r.handle('app:echo', () => {
      throw new AppError('conflict', 'busy');
    });
    expect(await r.invoke('app:echo', { text: 'a' })).toEqual({
      ok: false,
      error: { code: 'conflict', message: 'busy' },
    });
    const r2 = registry();
    r2.handle('app:echo', () => {
      throw new Error('outer', { cause: new Error('inner') });
    });
    expect(await r2.invoke('app:echo', { text: 'a' })).toEqual({
      ok: false,
      error: { code: 'internal', message: 'outer: caused by: inner' },
    });
  });

  it('checks responses against the contract too', async () => {
    const r = registry();
    r.handle('app:echo', () => ({ text: 'a', receivedAt: 1.5 }));
    expect(await r.invoke('app:echo', { text: 'a' })).toMatchObject({ ok: false, error: { code: 'internal' } });
  });
});
