import { describe, expect, it } from 'vitest';
import { pickFigures } from './use-live-figures';

const HUB = { balance: { balanceMinor: 100, currency: 'USD' } };
const HTTP = { balance: { balanceMinor: 900, currency: 'USD' }, performance: [] };

describe('live figures: the hub caches while connected, HTTP GET /api/dashboard/summary otherwise', () => {
  it('connected → the hub value; the summary only fills what the hub has not loaded', () => {
    expect(pickFigures(true, HUB, HTTP)).toEqual({
      balance: HUB.balance,
      deliveryStatus: undefined,
      performance: [],
    });
  });

  it('not connected → the HTTP summary; the last hub value only while there is none', () => {
    expect(pickFigures(false, HUB, HTTP).balance).toEqual(HTTP.balance);
    expect(pickFigures(false, HUB, undefined).balance).toEqual(HUB.balance);
  });
});
