import { describe, expect, it } from 'vitest';
import { lowestMessageIdAt, messageIdTime, newMessageId } from './message-uuid';

describe('message ids (UUIDv7)', () => {
  it('are version 7, variant 10, stamped with the time they were made, and strictly increasing', () => {
    const before = Date.now();
    const ids = Array.from({ length: 20_000 }, () => newMessageId());
    const after = Date.now();
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    // Thousands are made within one millisecond: the counter keeps them in order.
    for (let i = 1; i < ids.length; i++)
      expect(ids[i]! > ids[i - 1]!, `${ids[i - 1]} < ${ids[i]}`).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const first = messageIdTime(ids[0]!)!.getTime();
    const last = messageIdTime(ids.at(-1)!)!.getTime();
    expect(first).toBeGreaterThanOrEqual(before);
    expect(last).toBeLessThanOrEqual(after + 1);
    expect(ids[0]! >= lowestMessageIdAt(new Date(before))).toBe(true);
  });

  it('draw fresh random bits for each id (no two share their last 62 bits)', () => {
    const tails = new Set(Array.from({ length: 5_000 }, () => newMessageId().slice(-12)));
    expect(tails.size).toBe(5_000);
  });
});
