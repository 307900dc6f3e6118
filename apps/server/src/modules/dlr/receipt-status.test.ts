import { describe, expect, it } from 'vitest';
import { isErrorCode, messageOutcomeFromParts, statMeaning } from './receipt-status';

const interim = { acceptd: 'interim', unknownState: 'final' } as const;

describe('a receipt that contradicts itself', () => {
  it('is never delivered: DELIVRD or ACCEPTD with a non-zero err ends unknown, under either ACCEPTD policy', () => {
    for (const stat of ['DELIVRD', 'ACCEPTD', 'accepted']) {
      for (const policy of [undefined, interim]) {
        expect(statMeaning({ stat, err: '001' }, policy)).toEqual({
          kind: 'final',
          status: 'unknown',
          contradiction: expect.stringMatching(
            /^Receipt contradicts itself: (DELIVRD|ACCEPTD) with err:001;/,
          ),
        });
      }
    }
    expect(statMeaning({ stat: 'DELIVRD', err: '00A' })).toMatchObject({ status: 'unknown' });
  });

  it('leaves consistent receipts as they were: err 000, 0, empty or text is no error', () => {
    for (const err of ['000', '0', '', '-', null, undefined]) {
      expect(isErrorCode(err)).toBe(false);
      expect(statMeaning({ stat: 'DELIVRD', err })).toEqual({ kind: 'final', status: 'delivered' });
      expect(statMeaning({ stat: 'ACCEPTD', err })).toEqual({ kind: 'final', status: 'delivered' });
      expect(statMeaning({ stat: 'ACCEPTD', err }, interim)).toEqual({ kind: 'interim' });
    }
    // Failures carry their error as usual.
    expect(statMeaning({ stat: 'UNDELIV', err: '001' })).toEqual({ kind: 'final', status: 'undelivered' });
    expect(statMeaning({ stat: 'ENROUTE', err: '001' })).toEqual({ kind: 'interim' });
  });

  it("names the contradicting part of a multipart message in the message's error", () => {
    const outcome = messageOutcomeFromParts([
      { stat: 'DELIVRD', err: '000' },
      { stat: 'ACCEPTD', err: '001' },
    ]);
    expect(outcome).toEqual({
      status: 'unknown',
      stat: 'ACCEPTD',
      err: '001',
      error: expect.stringMatching(/^Part 2: Receipt contradicts itself: ACCEPTD with err:001;/),
    });
    expect(messageOutcomeFromParts([{ stat: 'DELIVRD', err: '000' }])).toEqual({
      status: 'delivered',
      stat: 'DELIVRD',
      err: '000',
    });
  });
});
