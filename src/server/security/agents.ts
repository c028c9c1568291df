import type { Dispatcher } from 'undici';
import { guardedAgent } from './ssrf';

const cache = new Map<string, Dispatcher>();

/** One guarded dispatcher per (purpose, setting), reused across requests so connections are pooled. */
export function outboundAgent(purpose: 'source' | 'callback' | 'webhook', allowPrivateTargets: boolean): Dispatcher {
  const key = `${purpose}:${String(allowPrivateTargets)}`;
  let agent = cache.get(key);
  if (!agent) {
    agent =
      purpose === 'source'
        ? guardedAgent({
            allowPrivateTargets,
            maxRedirections: 5,
            connectTimeoutMs: 15_000,
            headersTimeoutMs: 30_000,
            bodyTimeoutMs: 60_000,
          })
        : guardedAgent({ allowPrivateTargets, maxRedirections: 0 });
    cache.set(key, agent);
  }
  return agent;
}
