import { describe, expect, it } from 'vitest';
import { relativeTime } from './relative-time';

const NOW = Date.UTC(2025, 0, 1, 12, 0, 0);
const at = (ms: number) => new Date(NOW + ms).toISOString();

describe('relativeTime', () => {
  it('describes how far away a time is', () => {
    expect(relativeTime(at(10_000), NOW)).toBe('now');
    expect(relativeTime(at(90_000), NOW)).toBe('in 2 minutes');
    expect(relativeTime(at(3 * 3_600_000), NOW)).toBe('in 3 hours');
    expect(relativeTime(at(26 * 3_600_000), NOW)).toBe('tomorrow');
    expect(relativeTime(at(5 * 86_400_000), NOW)).toBe('in 5 days');
    expect(relativeTime(at(-120_000), NOW)).toBe('2 minutes ago');
  });
});
