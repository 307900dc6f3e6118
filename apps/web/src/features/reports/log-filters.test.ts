import { describe, expect, it } from 'vitest';
import {
  activeFilterCount,
  EMPTY_FILTERS,
  hasFilters,
  readFilters,
  toQueryFilters,
  writeFilters,
} from './log-filters';

describe('readFilters', () => {
  it('reads the filters from the address, ignoring malformed values', () => {
    const params = new URLSearchParams(
      'from=2025-01-02&to=nope&status=delivered&recipient=%2B1415&sender=Wren&text=code&page=2',
    );
    expect(readFilters(params)).toEqual({
      from: '2025-01-02',
      to: null,
      status: 'delivered',
      recipient: '+1415',
      sender: 'Wren',
      text: 'code',
    });
    expect(readFilters(new URLSearchParams('status=bogus'))).toEqual(EMPTY_FILTERS);
  });
});

describe('writeFilters', () => {
  it('sets the non-empty filters, removes empty ones and keeps other params', () => {
    const params = new URLSearchParams('page=2&text=old&message=abc');
    const next = writeFilters(params, { ...EMPTY_FILTERS, status: 'failed', sender: ' Wren ' });
    expect(next.toString()).toBe('page=2&message=abc&status=failed&sender=Wren');
    expect(params.toString()).toBe('page=2&text=old&message=abc');
  });

  it('round-trips through readFilters', () => {
    const filters = {
      from: '2025-03-01',
      to: '2025-03-31',
      status: 'queued' as const,
      recipient: '4415',
      sender: 'ACME',
      text: 'hi',
    };
    expect(readFilters(writeFilters(new URLSearchParams(), filters))).toEqual(filters);
  });
});

describe('toQueryFilters', () => {
  it('turns local days into an instant range with an exclusive end', () => {
    const q = toQueryFilters({ ...EMPTY_FILTERS, from: '2025-03-01', to: '2025-03-31', text: '  hello ' });
    expect(q).toEqual({
      from: new Date(2025, 2, 1).toISOString(),
      to: new Date(2025, 3, 1).toISOString(),
      text: 'hello',
    });
  });

  it('leaves out empty filters', () => {
    expect(toQueryFilters(EMPTY_FILTERS)).toEqual({});
    expect(hasFilters(EMPTY_FILTERS)).toBe(false);
    expect(hasFilters({ ...EMPTY_FILTERS, recipient: ' ' })).toBe(false);
    expect(hasFilters({ ...EMPTY_FILTERS, status: 'sent' })).toBe(true);
    expect(activeFilterCount({ ...EMPTY_FILTERS, from: '2025-01-01', to: '2025-01-02', text: 'x' })).toBe(2);
  });
});
