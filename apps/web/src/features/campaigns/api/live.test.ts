import { describe, expect, it } from 'vitest';
import { hasOpenMessages } from './live';

describe('hasOpenMessages', () => {
  it('is true while a message can still change, false once every one is final', () => {
    expect(hasOpenMessages(undefined)).toBe(false);
    expect(hasOpenMessages({})).toBe(false);
    expect(hasOpenMessages({ delivered: 3, undelivered: 1, expired: 2, queued: 0, sent: 0 })).toBe(false);
    expect(hasOpenMessages({ delivered: 3, sent: 1 })).toBe(true);
    expect(hasOpenMessages({ scheduled: 5 })).toBe(true);
    expect(hasOpenMessages({ queued: 1 })).toBe(true);
  });
});
