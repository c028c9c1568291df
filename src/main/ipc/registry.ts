import type { ZodError } from 'zod';
import { channels, isChannel, type Channel, type ReqParsed, type Res } from '../../shared/contract';
import { AppError, describeError, fail, ok, type Result } from '../../shared/errors';
import type { Logger } from '../log';

export type Handler<C extends Channel> = (req: ReqParsed<C>) => Promise<Res<C>> | Res<C>;

/** A feature's handlers, by channel: each feature's handlers.ts builds one, the composition root registers them all. */
export type HandlerMap = { [C in Channel]?: Handler<C> };

/**
 * One place where main registers contract handlers. Every call is validated with zod on the way in
 * (and out), and every failure comes back as data `{ ok: false, error }`, never as a throw.
 */
export class HandlerRegistry {
  private readonly handlers = new Map<Channel, (req: unknown) => Promise<unknown>>();

  constructor(private readonly log: Logger) {}

  handle<C extends Channel>(channel: C, handler: Handler<C>): void {
    this.add(channel, handler);
  }

  // The request reaching a handler is the channel's parsed request (invoke parses it with the same channel's schema).
  private add(channel: Channel, handler: (req: never) => unknown): void {
    if (this.handlers.has(channel)) throw new Error(`handler for ${channel} registered twice`);
    this.handlers.set(channel, async (req) => handler(req as never));
  }

  /** Registers every handler of a feature's map; a channel another map already registered is refused. */
  register(map: HandlerMap): void {
    for (const channel of Object.keys(map) as Channel[]) {
      const handler: ((req: never) => unknown) | undefined = map[channel];
      if (handler) this.add(channel, handler);
    }
  }

  registered(): Channel[] {
    return [...this.handlers.keys()];
  }

  async invoke(channel: string, rawReq: unknown): Promise<Result<unknown>> {
    if (!isChannel(channel)) return fail('unknown_channel', `unknown channel: ${channel}`);
    const handler = this.handlers.get(channel);
    if (!handler) return fail('unknown_channel', `no handler registered for ${channel}`);
    const parsed = channels[channel].req.safeParse(rawReq ?? {});
    if (!parsed.success) return fail('bad_request', formatZodError(parsed.error));
    try {
      const value = await handler(parsed.data);
      return ok(channels[channel].res.parse(value));
    } catch (err) {
      if (err instanceof AppError) return fail(err.code, err.message);
      this.log.error({ channel, err: describeError(err) }, 'handler failed');
      return fail('internal', describeError(err));
    }
  }
}

/**
 * A refused request in words: "the 2nd path: give the full path…", not "paths.1: …". The field is named by its last
 * name (singular for an item of a list) and an item by its place; the request as a whole needs no name.
 */
export function formatZodError(error: ZodError): string {
  return error.issues.map((issue) => `${fieldWords(issue.path)}${issue.message}`).join('; ');
}

function fieldWords(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '';
  const last = path[path.length - 1];
  if (typeof last === 'number') {
    const list = String(path[path.length - 2] ?? 'item');
    return `the ${ordinal(last + 1)} ${list.endsWith('s') ? list.slice(0, -1) : list}: `;
  }
  return `${String(last)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()}: `;
}

function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}
