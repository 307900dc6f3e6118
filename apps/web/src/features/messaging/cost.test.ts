import { describe, expect, it } from 'vitest';
import type { RatePlanDto } from '@wren/contracts';
import { estimateCost, priceFor } from './cost';

const PLAN: RatePlanDto = {
  currency: 'USD',
  prices: [
    { prefix: '', country: null, priceMinor: 5 },
    { prefix: '+1', country: 'US/CA', priceMinor: 1 },
    { prefix: '+44', country: 'GB', priceMinor: 4 },
    { prefix: '+4420', country: 'GB London', priceMinor: 3 },
  ],
};

describe('priceFor', () => {
  it('takes the longest matching prefix, with "" as the fallback', () => {
    expect(priceFor('+14155552671', PLAN)?.priceMinor).toBe(1);
    expect(priceFor('+442079460958', PLAN)?.priceMinor).toBe(3);
    expect(priceFor('+447911123456', PLAN)?.priceMinor).toBe(4);
    expect(priceFor('+4930901820', PLAN)?.priceMinor).toBe(5);
  });

  it('has no price when nothing matches', () => {
    expect(
      priceFor('+4930901820', { currency: 'USD', prices: [{ prefix: '+1', country: 'US', priceMinor: 1 }] }),
    ).toBeNull();
  });
});

describe('estimateCost', () => {
  it('sums price per segment × segments over recipients, with a line per price row', () => {
    const cost = estimateCost(['+14155552671', '+12125550123', '+447911123456', '+4930901820'], 3, PLAN);
    expect(cost.totalMinor).toBe((1 + 1 + 4 + 5) * 3);
    expect(cost.currency).toBe('USD');
    expect(cost.lines).toEqual([
      { prefix: '', country: null, recipients: 1, perSegmentMinor: 5, totalMinor: 15 },
      { prefix: '+44', country: 'GB', recipients: 1, perSegmentMinor: 4, totalMinor: 12 },
      { prefix: '+1', country: 'US/CA', recipients: 2, perSegmentMinor: 1, totalMinor: 6 },
    ]);
    expect(cost.unpriced).toEqual([]);
  });

  it('reports numbers without a price', () => {
    const plan = { currency: 'USD', prices: [{ prefix: '+1', country: 'US', priceMinor: 2 }] };
    const cost = estimateCost(['+14155552671', '+4930901820'], 1, plan);
    expect(cost.totalMinor).toBe(2);
    expect(cost.unpriced).toEqual(['+4930901820']);
  });

  it('is zero for no recipients', () => {
    expect(estimateCost([], 2, PLAN)).toEqual({ currency: 'USD', totalMinor: 0, lines: [], unpriced: [] });
  });
});
