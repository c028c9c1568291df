import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, buildConnector, interceptors, type Dispatcher } from 'undici';
import { isPrivateAddress } from './addresses';

/** A server-side request refused because its target resolves to a loopback/private/reserved address. */
export class TargetRefusedError extends Error {
  readonly code = 'ERR_TARGET_REFUSED';
  constructor(host: string, address: string) {
    super(
      `refused to connect to ${host} (${address}): a loopback, private, link-local or reserved address; ` +
        'set network.allowPrivateTargets to true to allow local targets',
    );
    this.name = 'TargetRefusedError';
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for net.connect that resolves the host and hands back only addresses the rule allows, so the socket
 * connects to exactly the address that was checked (no second resolution for DNS rebinding to exploit).
 */
export function guardedLookup(isRefused: (ip: string) => boolean = isPrivateAddress) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void =>
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, options.all ? [] : '', undefined);
      const allowed = addresses.filter((a) => !isRefused(a.address));
      if (allowed.length === 0)
        return callback(
          new TargetRefusedError(hostname, addresses[0]?.address ?? 'no address'),
          options.all ? [] : '',
          undefined,
        );
      if (options.all) return callback(null, allowed);
      const first = allowed[0];
      return callback(null, first?.address ?? '', first?.family);
    });
}

export interface GuardedAgentOptions {
  allowPrivateTargets: boolean;
  /** Redirects to follow; each hop connects through the same guard. 0: none. */
  maxRedirections?: number;
  connectTimeoutMs?: number;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  /** The rule; isPrivateAddress unless a test narrows it. */
  isRefused?: (ip: string) => boolean;
}

/**
 * The dispatcher for every request the service makes to a URL a user gave. With allowPrivateTargets false, an IP
 * literal is checked before connecting and a host name through guardedLookup; redirects (when followed) go through
 * the same connector, so each hop is checked again.
 */
export function guardedAgent(opts: GuardedAgentOptions): Dispatcher {
  const timeout = opts.connectTimeoutMs ?? 15_000;
  const isRefused = opts.isRefused ?? isPrivateAddress;
  const base = buildConnector(opts.allowPrivateTargets ? { timeout } : { timeout, lookup: guardedLookup(isRefused) });
  const connect: buildConnector.connector = (options, callback) => {
    const host = options.hostname.startsWith('[') ? options.hostname.slice(1, -1) : options.hostname;
    if (!opts.allowPrivateTargets && isIP(host) !== 0 && isRefused(host)) {
      callback(new TargetRefusedError(host, host), null);
      return;
    }
    base(options, callback);
  };
  const agent = new Agent({ connect, headersTimeout: opts.headersTimeoutMs, bodyTimeout: opts.bodyTimeoutMs });
  return opts.maxRedirections ? agent.compose(interceptors.redirect({ maxRedirections: opts.maxRedirections })) : agent;
}
