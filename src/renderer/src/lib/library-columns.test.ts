import { describe, expect, it } from 'vitest';
import { columnTemplate } from './library-columns';

describe('library column template', () => {
  it('keeps poster, name, status and actions, and drops the hidden facts', () => {
    expect(columnTemplate([])).toBeNull();
    const t = columnTemplate(['camera', 'fps']);
    expect(t).toBe('88px minmax(140px, 1.3fr) 72px 84px 104px 124px 60px minmax(240px, 1.6fr) 60px');
    expect(t?.split(/ (?![^(]*\))/)).toHaveLength(9);
  });
});
