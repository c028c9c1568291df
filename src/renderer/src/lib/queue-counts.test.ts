import { describe, expect, it } from 'vitest';
import { queueCounts } from './queue-counts';

describe('queueCounts', () => {
  it('counts index failures as failed and keeps the denominator as files move between states', () => {
    const before = queueCounts({ waiting: 3, indexed: 1, deleted: 4 });
    const after = queueCounts({ skipped: 1, cancelled: 1, index_failed: 1, indexed: 1, deleted: 4 });
    expect(before).toEqual({ busy: 3, failed: 0, indexed: 1, skipped: 0, total: 4, searchable: 4 });
    // Rejected and cancelled files never become searchable: "1/2 searchable", not "1/4" (issue 28 item 8).
    expect(after).toEqual({ busy: 0, failed: 1, indexed: 1, skipped: 2, total: 4, searchable: 2 });
    expect(queueCounts(undefined).total).toBe(0);
  });
});
