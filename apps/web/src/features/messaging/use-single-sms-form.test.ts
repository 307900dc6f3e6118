import { describe, expect, it } from 'vitest';
import { parseRecipient } from './parse-recipients';
import { toSendInput, validateSingleSms, type SingleSmsValues } from './use-single-sms-form';

const NOW = Date.UTC(2025, 5, 1, 12, 0, 0);
const base: SingleSmsValues = {
  recipients: [parseRecipient('+14155552671', 'US'), parseRecipient('+442079460958', 'US')],
  text: 'Hello',
  senderId: '',
  schedule: false,
  scheduleAt: null,
  timezone: 'Europe/London',
};

describe('validateSingleSms', () => {
  it('accepts a complete send', () => {
    expect(validateSingleSms(base, NOW)).toEqual({});
  });

  it('needs valid recipients and a message', () => {
    expect(validateSingleSms({ ...base, recipients: [], text: ' ' }, NOW)).toEqual({
      recipients: 'Add at least one recipient',
      text: 'Write a message',
    });
    const withInvalid = { ...base, recipients: [...base.recipients, parseRecipient('12', 'US')] };
    expect(validateSingleSms(withInvalid, NOW).recipients).toBe(
      'Fix or remove the invalid number (marked in red)',
    );
  });

  it('limits the length to 10 segments', () => {
    expect(validateSingleSms({ ...base, text: 'x'.repeat(153 * 10) }, NOW)).toEqual({});
    expect(validateSingleSms({ ...base, text: 'x'.repeat(153 * 10 + 1) }, NOW).text).toBe(
      'The message is too long: 11 segments (at most 10)',
    );
  });

  it('needs a schedule time in the future', () => {
    expect(validateSingleSms({ ...base, schedule: true }, NOW).scheduleAt).toBe('Choose when to send');
    // 12:00 UTC is 13:00 in London (BST).
    expect(
      validateSingleSms({ ...base, schedule: true, scheduleAt: '2025-06-01 13:00:30' }, NOW).scheduleAt,
    ).toBe('Choose a time at least a minute from now');
    expect(validateSingleSms({ ...base, schedule: true, scheduleAt: '2025-06-01 13:05:00' }, NOW)).toEqual(
      {},
    );
  });
});

describe('toSendInput', () => {
  it('sends E.164 numbers and leaves the default sender to the server', () => {
    expect(toSendInput(base, 'Wren')).toEqual({
      recipients: ['+14155552671', '+442079460958'],
      text: 'Hello',
    });
    expect(toSendInput({ ...base, senderId: 'Wren' }, 'Wren').senderId).toBeUndefined();
    expect(toSendInput({ ...base, senderId: 'ACME' }, 'Wren').senderId).toBe('ACME');
  });

  it('sends the schedule as an ISO instant with the offset of the chosen zone', () => {
    const input = toSendInput(
      { ...base, schedule: true, scheduleAt: '2025-06-02 09:30:00', timezone: 'America/New_York' },
      'Wren',
    );
    expect(input.scheduleAt).toBe('2025-06-02T09:30:00-04:00');
    expect(input.timezone).toBe('America/New_York');
  });
});
