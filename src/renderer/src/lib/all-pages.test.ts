import { describe, expect, it } from 'vitest';
import { allPages } from './all-pages';

describe('allPages', () => {
  const list = Array.from({ length: 1234 }, (_, i) => i);
  const asked: number[] = [];
  const fetchPage = (page: number, size: number) => {
    asked.push(page);
    return Promise.resolve({ items: list.slice((page - 1) * size, page * size), total: list.length });
  };

  it('reads every page, in order, and stops at the total', async () => {
    expect(await allPages(500, fetchPage)).toEqual(list);
    expect(asked).toEqual([1, 2, 3]);
  });

  it('stops at a short page even when the total said more (rows removed meanwhile)', async () => {
    const shrinking = (page: number, size: number) =>
      Promise.resolve({ items: list.slice((page - 1) * size, Math.min(page * size, 700)), total: 1234 });
    expect(await allPages(500, shrinking)).toHaveLength(700);
  });
});
