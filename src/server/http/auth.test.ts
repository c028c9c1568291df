import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Accounts } from '../accounts/accounts';
import { openServiceDb, type Db } from '../storage/db';
import { SqliteSql } from '../storage/sqlite-sql';
import { tempDir } from '../../../test/helpers/temp';
import { authenticate, decorateAccount } from './auth';
import { failure, HttpError } from './envelope';
import { libraryRoute } from './library/route';

describe('request.account and libraryRoute, over real HTTP', () => {
  let app: FastifyInstance;
  let db: Db;
  let base: string;
  let key: string;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const temp = await tempDir();
    cleanup = temp.cleanup;
    db = openServiceDb(temp.dir);
    const accounts = new Accounts(new SqliteSql(db));
    key = await accounts.createKey((await accounts.ensure('alice')).id, 'library');
    app = Fastify();
    decorateAccount(app);
    app.setErrorHandler((err, _request, reply) => {
      if (err instanceof HttpError) return reply.code(err.httpStatus).send(failure(err.code, err.message));
      return reply.code(500).send(failure('0001', 'internal error'));
    });
    await app.register(async (scope) => {
      scope.addHook('preHandler', authenticate(accounts, 'library'));
      libraryRoute(scope, {
        method: 'POST',
        url: '/items/:n',
        params: z.object({ n: z.coerce.number().int() }),
        body: z.object({ name: z.string().min(1, 'name is required') }),
        response: z.object({ who: z.string(), n: z.number(), name: z.string() }),
        handler: async ({ account, params, body }) => ({ who: account.name, n: params.n, name: body.name }),
      });
    });
    // A route outside every authenticated scope: reading the account is a wiring mistake, refused.
    app.get('/unscoped', async (request) => ({ who: request.account.name }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await app.close();
    db.close();
    await cleanup();
  });

  const post = (path: string, body: unknown, authorization = key) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('hands the key owner to the handler and answers the success envelope', async () => {
    const res = await post('/items/7', { name: 'clip' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      code: '0000',
      msg: 'success',
      data: { who: 'alice', n: 7, name: 'clip' },
      success: true,
      failed: false,
    });
  });

  it('refuses a wrong key before the handler, and a bad part with the first problem', async () => {
    const denied = await post('/items/7', { name: 'clip' }, 'rsl_not-a-key');
    expect(denied.status).toBe(401);
    expect(await denied.json()).toMatchObject({ code: '0401', data: null, failed: true });
    const badParam = await post('/items/x', {});
    expect(badParam.status).toBe(400);
    expect(z.object({ msg: z.string() }).parse(await badParam.json()).msg).toMatch(/^n: /);
    const badBody = await post('/items/7', {});
    expect(await badBody.json()).toMatchObject({ msg: 'name is required' });
  });

  it('refuses request.account where no auth hook ran', async () => {
    const res = await fetch(`${base}/unscoped`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: '0401', msg: 'not authenticated' });
  });
});
