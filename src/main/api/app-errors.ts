import { AppError, unreachable, type ErrorCode } from '../../shared/errors';
import { LibraryApiError, type FailureReason } from './errors';

function codeOf(reason: FailureReason): ErrorCode {
  switch (reason) {
    case 'unauthorized':
      return 'bad_request';
    case 'insufficient-balance':
      return 'insufficient_balance';
    case 'rate-limited':
      return 'rate_limited';
    case 'validation':
      return 'bad_request';
    case 'network':
      return 'offline';
    case 'server':
    case 'protocol':
      return 'internal';
    default:
      throw unreachable(reason);
  }
}

/** Runs a library call, turning the API client's failures into contract errors the UI can tell apart. */
export async function libraryCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof LibraryApiError)
      throw new AppError(
        codeOf(err.reason),
        err.reason === 'unauthorized' ? `the library service refused the key: ${err.message}` : err.message,
        { cause: err },
      );
    throw err;
  }
}
