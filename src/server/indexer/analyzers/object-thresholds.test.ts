import { describe, expect, it } from 'vitest';
import { objectMinScore, passesObjectThreshold } from './object-thresholds';
import { centreInside } from './people-descriptors';

describe('object thresholds', () => {
  it('keeps a label from its class threshold', () => {
    expect(passesObjectThreshold({ label: 'vase', score: 0.59 })).toBe(false);
    expect(passesObjectThreshold({ label: 'vase', score: objectMinScore('vase') })).toBe(true);
  });

  it('keeps an unsure person box only with a confirmed face centred inside it', () => {
    const person = { label: 'person', score: 0.15, box: [100, 50, 80, 200] as const };
    expect(passesObjectThreshold(person)).toBe(false);
    expect(passesObjectThreshold(person, [{ box: [120, 60, 40, 40] }])).toBe(true);
    // The face's box overlaps the person's, its centre does not.
    expect(passesObjectThreshold(person, [{ box: [170, 60, 40, 40] }])).toBe(false);
    expect(passesObjectThreshold({ ...person, score: 0.05 }, [{ box: [120, 60, 40, 40] }])).toBe(false);
  });

  it('reads a box centre inside another, edges included', () => {
    expect(centreInside([0, 0, 20, 20], [10, 10, 50, 50])).toBe(true);
    expect(centreInside([0, 0, 18, 18], [10, 10, 50, 50])).toBe(false);
  });
});
