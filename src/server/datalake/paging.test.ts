import { describe, expect, it } from 'vitest';
import { DatalakeError } from './errors';
import { newestFirst, pageRequest } from './paging';

// The pages themselves (order, ties, cursors as issued) are read on both engines in record-stores.test.ts.
describe('datalake paging', () => {
  it('refuses a cursor it did not issue with a 400 invalid_argument, an empty one reads the first page', () => {
    const refused = (cursor: string): unknown => {
      try {
        pageRequest(newestFirst, 10, cursor);
      } catch (err) {
        return err instanceof DatalakeError ? [err.httpStatus, err.code, err.message] : err;
      }
      return 'accepted';
    };
    const notIssued = [400, 'invalid_argument', 'cursor is not a cursor this service issued'];
    expect(refused('%%%')).toEqual(notIssued);
    expect(refused(Buffer.from('{"t":"x","id":1}').toString('base64url'))).toEqual(notIssued);
    expect(refused(Buffer.from('not json').toString('base64url'))).toEqual(notIssued);
    expect(pageRequest(newestFirst, 10, '')).toEqual({ limit: 10, after: undefined });
  });
});
