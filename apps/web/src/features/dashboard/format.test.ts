import { afterEach, describe, expect, it } from 'vitest';
import type { StatusCounts } from '@wren/contracts';
import * as app from '@/lib/format';
import { applyLocale } from '@/lib/i18n-runtime';
import {
  formatCount,
  formatDateTime,
  formatDay,
  formatRate,
  messagesCount,
  performanceTotals,
  statusSlices,
  totalOf,
} from './format';

afterEach(async () => {
  await applyLocale('en-US');
});

const counts = (partial: Partial<StatusCounts>): StatusCounts => ({
  scheduled: 0,
  queued: 0,
  sending: 0,
  sent: 0,
  delivered: 0,
  undelivered: 0,
  expired: 0,
  rejected: 0,
  failed: 0,
  canceled: 0,
  unknown: 0,
  ...partial,
});

describe('dashboard figures', () => {
  it('lists the statuses with messages in lifecycle order, and totals them', () => {
    const c = counts({ failed: 1, delivered: 7, queued: 2 });
    expect(statusSlices(c).map((s) => [s.status, s.count])).toEqual([
      ['queued', 2],
      ['delivered', 7],
      ['failed', 1],
    ]);
    expect(totalOf(c)).toBe(10);
  });

  it('"Messages today" leaves out a canceled message, which was never sent (defect 8)', () => {
    const c = counts({ delivered: 2, canceled: 1, scheduled: 1 });
    expect(totalOf(c)).toBe(4);
    expect(messagesCount(c)).toBe(3);
  });

  it('computes the delivery rate over the whole series; none when nothing was sent', () => {
    const day = (sent: number, delivered: number, failed: number) => ({
      date: '2025-01-01',
      sent,
      delivered,
      failed,
      deliveryRate: 0,
    });
    expect(performanceTotals([day(4, 3, 1), day(4, 4, 0)])).toEqual({
      sent: 8,
      delivered: 7,
      failed: 1,
      deliveryRate: 7 / 8,
    });
    expect(performanceTotals([day(0, 0, 0)]).deliveryRate).toBeNull();
    expect(formatRate(7 / 8)).toBe('87.5%');
    expect(formatRate(null)).toBe('—');
  });
});

// The dashboard formats with Intl directly (first-load budget): held to the app's one format.
describe('dashboard formats are the app’s', () => {
  it('matches lib/format in English and in French, September included', async () => {
    const times = ['2026-09-01T00:07:00Z', '2026-12-01T21:57:49Z', '2027-03-05T09:30:00Z'];
    for (const locale of ['en-US', 'fr'] as const) {
      await applyLocale(locale);
      for (const t of times) expect(formatDateTime(t)).toBe(app.formatDateTime(t));
      expect(formatDay('2026-09-05')).toBe(app.formatDay('2026-09-05'));
      expect(formatCount(1234567)).toBe(app.formatNumber(1234567));
    }
    await applyLocale('en-US');
    expect(formatDateTime('2026-09-01T00:07:00Z')).toMatch(/^1 Sep 2026, \d\d:07$/);
  });
});
