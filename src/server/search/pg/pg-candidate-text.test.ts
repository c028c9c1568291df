import { describe, expect, it } from 'vitest';
import { candidateText } from './pg-candidate-text';

const exact = (tokens: number): boolean => tokens < 250;

describe('candidateText: candidate rows from their one text', () => {
  it('reads each line as a row, its positions split into columns by the gaps', () => {
    const rows = candidateText("12 9 'car':2,5A 'red':1A,10 '|':3,6,7,9\n7 4 '|':1,2,3,4", exact);
    expect(rows.map((r) => [r.id, r.tokens])).toEqual([
      [12, 9],
      [7, 4],
    ]);
    const [caption, transcript, ocr, labels, names] = rows[0]!.columns!;
    expect([...caption!]).toEqual([
      ['car', [2]],
      ['red', [1]],
    ]);
    expect([...transcript!]).toEqual([['car', [5]]]);
    expect([ocr!.size, labels!.size]).toEqual([0, 0]);
    expect([...names!]).toEqual([['red', [10]]]);
    expect(rows[1]!.columns!.every((c) => c.size === 0)).toBe(true);
  });

  it('unquotes lexemes, reads a row without words, and leaves long rows or missing gaps unsplit', () => {
    const [quoted, empty, long, gapless] = candidateText(
      "1 3 'it''s':1 'a\\\\b':2 '|':3,4,5,6\n2 0 \n3 300 'car':1 '|':2,3,4,5\n4 2 'car':1",
      exact,
    );
    expect([...quoted!.columns![0]!.keys()]).toEqual(["it's", 'a\\b']);
    expect(empty).toEqual({ id: 2, tokens: 0, columns: null });
    expect(long).toEqual({ id: 3, tokens: 300, columns: null });
    expect(gapless!.columns).toBeNull();
    expect(candidateText('', exact)).toEqual([]);
  });

  it('refuses text in another shape', () => {
    expect(() => candidateText('x 1 ', exact)).toThrow(/number expected/);
    expect(() => candidateText("1 2 'car:1", exact)).toThrow(/closing quote/);
    expect(() => candidateText('1 2', exact)).toThrow(/' ' expected/);
  });
});
