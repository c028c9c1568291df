import { AppError, unreachable, type ErrorCode } from '../../shared/errors';
import { LibraryApiError, type FailureReason } from './errors';

/**
 * The one mapping from a failed library call to the contract's error code, which decides what the UI shows: a service
 * that cannot be reached or answers 5xx is `offline` (the offline banner and the last results), never "failed".
 */
export function libraryErrorCode(reason: FailureReason): ErrorCode {
  switch (reason) {
    case 'network':
    case 'server':
      return 'offline';
    case 'unauthorized':
    case 'validation':
      return 'bad_request';
    case 'insufficient-balance':
      return 'insufficient_balance';
    case 'rate-limited':
      return 'rate_limited';
    case 'protocol':
      return 'internal';
    default:
      throw unreachable(reason);
  }
}

/** Whether an error says the library service is unreachable (transport failure or 5xx). */
export function isLibraryOffline(err: unknown): boolean {
  return err instanceof LibraryApiError && libraryErrorCode(err.reason) === 'offline';
}

/** Runs a library call, turning the API client's failures into contract errors the UI can tell apart. */
export async function libraryCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof LibraryApiError)
      throw new AppError(
        libraryErrorCode(err.reason),
        err.reason === 'unauthorized' ? `the library service refused the key: ${err.message}` : err.message,
        { cause: err },
      );
    throw err;
  }
}
