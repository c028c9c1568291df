import { describe, expect, it } from 'vitest';
import { mergePostings, postingList } from './pg-posting-lists';

describe('postingList', () => {
  it('reads comma-separated ids, word counts and instances, newest first whatever order they came in', () => {
    expect(postingList('12,7', '9,4', '7.5,1')).toEqual({ ids: [12, 7], tokens: [9, 4], counts: [7.5, 1] });
    expect(postingList('3,12,7', '1,9,4', '2,7.5,1')).toEqual({
      ids: [12, 7, 3],
      tokens: [9, 4, 1],
      counts: [7.5, 1, 2],
    });
    expect(postingList(null, null, null)).toEqual({ ids: [], tokens: [], counts: [] });
  });

  it('refuses anything else', () => {
    expect(() => postingList('12,x', '9,4', '1,1')).toThrow(/"x" is no number/);
    expect(() => postingList('12,', '9,4', '1,1')).toThrow(/"" is no number/);
    expect(() => postingList('12,7', '9', '1,1')).toThrow(/2 ids but 1 and 2 values/);
  });
});

describe('mergePostings', () => {
  // red in 9, 5, 2; car in 9, 7, 2; boat in 5, 3.
  const red = postingList('9,5,2', '10,6,3', '2,1,3');
  const car = postingList('9,7,2', '10,8,3', '1,4,1');
  const boat = postingList('5,3', '6,5', '5,2');

  it('gives the newest rows holding any of the words, each list’s instances in them', () => {
    const rows = mergePostings([red, car], [1, 1], 1, 1, 10);
    expect(rows.map((r) => [r.id, r.tokens, [...r.counts]])).toEqual([
      [9, 10, [2, 1]],
      [7, 8, [0, 4]],
      [5, 6, [1, 0]],
      [2, 3, [3, 1]],
    ]);
  });

  it('keeps rows whose masks hold every wanted bit and none of the others, up to the window', () => {
    // (red or boat) and car, not boat: bit 0 red/boat, bit 1 car, bit 2 boat excluded.
    expect(mergePostings([red, car, boat], [1, 2, 1 | 4], 7, 3, 10).map((r) => r.id)).toEqual([9, 2]);
    expect(mergePostings([red, car, boat], [1, 2, 1 | 4], 7, 3, 1).map((r) => r.id)).toEqual([9]);
    expect(mergePostings([red, boat], [1, 4], 5, 1, 10).map((r) => r.id)).toEqual([9, 2]);
    expect(mergePostings([], [], 1, 1, 10)).toEqual([]);
  });
});
