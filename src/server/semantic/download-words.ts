import { ModelDownloadError } from './hub-download';

/**
 * Why a model download failed, in words an editor acts on: offline or blocked is not a bug, and says what to do. The
 * raw cause follows in parentheses for whoever reads the logs.
 */
export function plainDownloadFailure(err: unknown, host: string): string {
  const raw = err instanceof Error ? err.message : String(err);
  const chain = describeChain(err);
  const where = hostName(host);
  if (err instanceof ModelDownloadError) return raw;
  if (/ENOTFOUND|EAI_AGAIN/.test(chain))
    return `${where} cannot be reached from this computer: no network, or its name does not resolve here. Try again when online, or install the model from a folder (${raw})`;
  if (/ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH/.test(chain))
    return `${where} refused or dropped the connection: a firewall or proxy may be in the way (set HTTPS_PROXY if your network needs one). Try again later, or install the model from a folder (${raw})`;
  if (/timeout|ETIMEDOUT|UND_ERR_.*TIMEOUT/i.test(chain))
    return `${where} did not answer in time. Try again later; the download goes on where it stopped (${raw})`;
  if (/certificate|SSL|TLS/i.test(chain))
    return `${where} answered with a certificate this computer does not trust: a proxy may be intercepting the connection (${raw})`;
  return raw;
}

function describeChain(err: unknown): string {
  const parts: string[] = [];
  let at: unknown = err;
  for (let depth = 0; at && depth < 5; depth++) {
    if (at instanceof Error) {
      parts.push(
        at.message,
        (at as { code?: unknown }).code === undefined ? '' : String((at as { code?: unknown }).code),
      );
      at = at.cause;
    } else {
      parts.push(typeof at === 'string' ? at : JSON.stringify(at));
      at = undefined;
    }
  }
  return parts.join(' ');
}

function hostName(host: string): string {
  try {
    return `The model host ${new URL(host).host}`;
  } catch {
    return `The model folder ${host}`;
  }
}
