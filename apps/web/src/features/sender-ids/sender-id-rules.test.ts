import { describe, expect, it } from 'vitest';
import type { SenderIdDto } from '@wren/contracts';
import { nextDefault, senderIdHint, sortSenderIds, STATUS_META } from './sender-id-rules';

describe('senderIdHint', () => {
  it('explains both kinds while the field is empty', () => {
    const hint = senderIdHint('  ');
    expect(hint).toMatchObject({ kind: null, used: 0, problem: null });
    expect(hint.text).toMatch(/11 letters.*3–15 digits/);
  });

  it('counts characters of an alphanumeric sender against 11', () => {
    expect(senderIdHint('WrenShop')).toMatchObject({
      kind: 'alphanumeric',
      used: 8,
      max: 11,
      problem: null,
      text: 'Alphanumeric sender · 8 / 11 characters',
    });
  });

  it('reports an alphanumeric sender that is too long', () => {
    const hint = senderIdHint('WrenShopOnline');
    expect(hint.used).toBe(14);
    expect(hint.problem).toBe('An alphanumeric sender ID can have at most 11 characters');
    expect(hint.showNow).toBe(true);
  });

  it('counts digits of a numeric sender against 15, ignoring +, spaces and dashes', () => {
    expect(senderIdHint('+1 212-555-0101')).toMatchObject({
      kind: 'numeric',
      used: 11,
      max: 15,
      problem: null,
      text: 'Numeric sender · 11 / 15 digits',
    });
  });

  it('reports numeric senders that are too short or too long', () => {
    expect(senderIdHint('12')).toMatchObject({
      problem: 'A numeric sender ID needs at least 3 digits',
      showNow: false,
    });
    expect(senderIdHint('1234567890123456').problem).toBe('A numeric sender ID can have at most 15 digits');
  });

  it('names characters outside the GSM alphabet', () => {
    expect(senderIdHint('Wren™').problem).toContain('"™"');
  });
});

describe('STATUS_META', () => {
  it('labels a requested sender ID as pending review in yellow', () => {
    expect(STATUS_META.requested).toEqual({ label: 'Pending review', color: 'yellow' });
    expect(STATUS_META.approved.color).toBe('green');
    expect(STATUS_META.rejected.color).toBe('red');
  });
});

describe('sortSenderIds', () => {
  const item = (id: string, status: SenderIdDto['status'], createdAt: string, isDefault = false) =>
    ({ id, status, createdAt, isDefault }) as SenderIdDto;

  it('puts the default first, then approved, pending, rejected, newest first', () => {
    const sorted = sortSenderIds([
      item('r', 'rejected', '2024-01-05'),
      item('p', 'requested', '2024-01-04'),
      item('a-old', 'approved', '2024-01-01'),
      item('a-new', 'approved', '2024-01-03'),
      item('d', 'approved', '2024-01-02', true),
    ]);
    expect(sorted.map((s) => s.id)).toEqual(['d', 'a-new', 'a-old', 'p', 'r']);
  });
});

describe('nextDefault', () => {
  const item = (id: string, status: SenderIdDto['status'], createdAt: string, isDefault = false) =>
    ({
      id,
      value: `S${id}`,
      kind: 'alphanumeric',
      purpose: 'p',
      sampleMessage: 'm',
      status,
      reason: null,
      isDefault,
      createdAt,
      decidedAt: null,
    }) satisfies SenderIdDto;

  it('is the oldest other approved sender ID (then the lower id), as the server picks', () => {
    const target = item('9', 'approved', '2024-01-01T00:00:00.000Z', true);
    const items = [
      target,
      item('0', 'requested', '2023-01-01T00:00:00.000Z'),
      item('7', 'rejected', '2023-01-01T00:00:00.000Z'),
      item('c', 'approved', '2024-02-01T00:00:00.000Z'),
      item('b', 'approved', '2024-02-01T00:00:00.000Z'),
      item('d', 'approved', '2024-03-01T00:00:00.000Z'),
    ];
    expect(nextDefault(items, target)?.id).toBe('b');
    expect(nextDefault([target, items[1]!], target)).toBeNull();
  });
});
