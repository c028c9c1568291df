/** The codes a failed operation carries (interface B names them on its operation records: datalake/errors.ts). */
export type OperationFailureCode =
  | 'insufficient_balance'
  | 'unsupported_media'
  | 'internal'
  | 'source_unresolved'
  | 'media_too_large'
  | 'index_failed'
  | 'partial_failure'
  | 'video_deleted';

/** A failure that ends an operation: {code, message} on the operation record. */
export class OperationFailure extends Error {
  constructor(
    readonly code: OperationFailureCode,
    message: string,
  ) {
    super(message);
    this.name = 'OperationFailure';
  }
}
