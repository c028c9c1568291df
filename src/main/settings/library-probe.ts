import { AppError, describeError } from '../../shared/errors';
import { parseLibraryBaseUrl } from '../../shared/library-url';
import { LibraryClient } from '../api/client';
import { LibraryApiError } from '../api/errors';
import type { Logger } from '../log';

/** How long the first call to a new library may take before it counts as unreachable. */
const PROBE_TIMEOUT_MS = 10_000;

/**
 * Tries a library address and key with a real call (the folder list: authenticated, free, small) before the app
 * switches to it. Answers the base URL it reached, or throws an AppError saying in plain words what went wrong.
 */
export async function probeLibrary(input: string, key: string, logger: Logger): Promise<string> {
  const parsed = parseLibraryBaseUrl(input);
  if (!parsed.ok) throw new AppError('bad_request', parsed.error);
  if (!key.trim()) throw new AppError('bad_request', 'Give the library’s API key: nothing was changed.');
  const client = new LibraryClient({ baseUrl: parsed.url, key: key.trim(), logger });
  try {
    await client.listFolders(AbortSignal.timeout(PROBE_TIMEOUT_MS));
    return parsed.url;
  } catch (err) {
    throw new AppError('bad_request', plainProbeFailure(parsed.url, err), { cause: err });
  } finally {
    await client.close();
  }
}

function plainProbeFailure(url: string, err: unknown): string {
  const host = new URL(url).host;
  if (err instanceof LibraryApiError) {
    switch (err.reason) {
      case 'unauthorized':
        return `The library at ${host} refused this key. Check the key and try again; nothing was changed.`;
      case 'network':
        return `Could not reach ${host} (${networkWords(err)}). Check the address and your connection; nothing was changed.`;
      case 'server':
        return `The library at ${host} answered with a server error. Try again later; nothing was changed.`;
      case 'protocol':
        return `${host} answered, but not as a video library does. Check the address; nothing was changed.`;
      default:
        return `The library at ${host} did not accept the call: ${err.message}. Nothing was changed.`;
    }
  }
  if (err instanceof Error && err.name === 'TimeoutError')
    return `${host} did not answer within ${PROBE_TIMEOUT_MS / 1000} seconds. Check the address; nothing was changed.`;
  return `Could not try ${host}: ${describeError(err)}. Nothing was changed.`;
}

/** The transport failure as an editor reads it: no host name found, refused, timed out. */
function networkWords(err: Error): string {
  const chain = describeError(err);
  if (/ENOTFOUND|EAI_AGAIN/.test(chain)) return 'no server by that name';
  if (/ECONNREFUSED/.test(chain)) return 'nothing answers at that address';
  if (/ETIMEDOUT|timeout/i.test(chain)) return 'it did not answer in time';
  if (/certificate|SSL|TLS/i.test(chain)) return 'its security certificate is not valid';
  return 'the connection failed';
}
