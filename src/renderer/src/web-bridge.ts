import { channelNames, type EventName, type ReelsyncBridge } from '../../shared/contract';
import type { Result } from '../../shared/errors';

const TOKEN_KEY = 'reelsync.token';

/** Reads the session token handed over in the URL fragment once, then keeps it out of the address bar. */
function sessionToken(): string {
  const match = /token=([A-Za-z0-9_-]+)/.exec(window.location.hash);
  if (match?.[1]) {
    sessionStorage.setItem(TOKEN_KEY, match[1]);
    history.replaceState(null, '', window.location.pathname + window.location.search);
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? '';
}

/** Address of a media resource in web mode (the token rides in the query: a <video> cannot send headers). */
export function webMediaUrl(kind: 'file' | 'keyframe' | 'poster', params: Record<string, string>): string {
  const q = new URLSearchParams({ ...params, token: sessionToken() });
  return `/api/media/${kind}?${q.toString()}`;
}

/** The contract over HTTP + Server-Sent Events, for the headless web mode. */
export function createWebBridge(): ReelsyncBridge {
  const token = sessionToken();

  async function invoke(channel: string, req: unknown): Promise<Result<unknown>> {
    try {
      const res = await fetch(`/api/rpc/${channel}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-reelsync-token': token },
        body: JSON.stringify(req ?? {}),
      });
      return (await res.json()) as Result<unknown>;
    } catch (err) {
      return { ok: false, error: { code: 'offline', message: `Reelsync is not reachable: ${String(err)}` } };
    }
  }

  const call = Object.fromEntries(
    channelNames.map((channel) => [channel, (req: unknown) => invoke(channel, req)]),
  ) as ReelsyncBridge['call'];

  let source: EventSource | undefined;
  const sourceFor = (): EventSource => {
    source ??= new EventSource(`/api/events?token=${encodeURIComponent(token)}`);
    return source;
  };

  return {
    call,
    on: (event: EventName, listener: (payload: never) => void) => {
      const handler = (msg: MessageEvent<string>): void => listener(JSON.parse(msg.data) as never);
      const es = sourceFor();
      es.addEventListener(event, handler);
      return () => es.removeEventListener(event, handler);
    },
  } as ReelsyncBridge;
}
