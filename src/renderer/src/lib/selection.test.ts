import { describe, expect, it } from 'vitest';
import { EMPTY_SELECTION, keepShown, pick, selectAll, selectedInOrder } from './selection';

const order = [10, 20, 30, 40, 50];
const plain = { shiftKey: false, ctrlKey: false, metaKey: false };
const ctrl = { ...plain, ctrlKey: true };
const cmd = { ...plain, metaKey: true };
const shift = { ...plain, shiftKey: true };

describe('list selection', () => {
  it('a plain click picks one and sets the anchor', () => {
    const s = pick(pick(EMPTY_SELECTION, order, 20, plain), order, 40, plain);
    expect([...s.ids]).toEqual([40]);
    expect(s.anchor).toBe(40);
  });

  it('Ctrl or Cmd adds and drops one', () => {
    let s = pick(EMPTY_SELECTION, order, 20, plain);
    s = pick(s, order, 40, ctrl);
    s = pick(s, order, 50, cmd);
    expect(selectedInOrder(s, order)).toEqual([20, 40, 50]);
    s = pick(s, order, 40, ctrl);
    expect(selectedInOrder(s, order)).toEqual([20, 50]);
  });

  it('Shift takes the range from the anchor either way, and replaces the rest unless Ctrl is held', () => {
    let s = pick(EMPTY_SELECTION, order, 40, plain);
    s = pick(s, order, 20, shift);
    expect(selectedInOrder(s, order)).toEqual([20, 30, 40]);
    s = pick(s, order, 50, shift);
    expect(selectedInOrder(s, order)).toEqual([40, 50]);
    s = pick(pick(s, order, 10, ctrl), order, 20, { ...shift, ctrlKey: true });
    expect(selectedInOrder(s, order)).toEqual([10, 20, 40, 50]);
  });

  it('Shift with no anchor picks one; select all and dropping what is no longer shown', () => {
    expect([...pick(EMPTY_SELECTION, order, 30, shift).ids]).toEqual([30]);
    const all = selectAll(order);
    expect(all.ids.size).toBe(5);
    const kept = keepShown(all, [20, 30]);
    expect(selectedInOrder(kept, order)).toEqual([20, 30]);
    expect(kept.anchor).toBe(20);
    expect(keepShown(kept, [20, 30])).toBe(kept);
  });
});
