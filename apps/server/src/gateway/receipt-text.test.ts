import { describe, expect, it } from 'vitest';
import {
  parseReceiptDate,
  parseReceiptText,
  STAT_BY_MESSAGE_STATE,
  type ParsedReceipt,
} from './receipt-text';

const utc = (y: number, mo: number, d: number, h: number, mi: number, s = 0): Date =>
  new Date(Date.UTC(y, mo - 1, d, h, mi, s));

/** The SMPP 3.4 Appendix B layout with the given overrides. */
const appendixB = (over: Partial<Record<'id' | 'stat' | 'err' | 'text', string>> = {}): string =>
  `id:${over.id ?? '1234567890'} sub:001 dlvrd:001 submit date:2401021530 done date:2401021531` +
  ` stat:${over.stat ?? 'DELIVRD'} err:${over.err ?? '000'} text:${over.text ?? 'Your code is 4242'}`;

const full = (over: Partial<ParsedReceipt>): ParsedReceipt => ({
  id: '1234567890',
  stat: 'DELIVRD',
  sub: '001',
  dlvrd: '001',
  submitDate: utc(2024, 1, 2, 15, 30),
  doneDate: utc(2024, 1, 2, 15, 31),
  err: '000',
  text: 'Your code is 4242',
  ...over,
});

const cases: [name: string, input: string, expected: ParsedReceipt][] = [
  ['SMPP 3.4 Appendix B form', appendixB(), full({})],
  [
    '12-digit dates with seconds',
    'id:77 sub:001 dlvrd:001 submit date:240102153005 done date:240102153159 stat:DELIVRD err:000 text:x',
    full({
      id: '77',
      submitDate: utc(2024, 1, 2, 15, 30, 5),
      doneDate: utc(2024, 1, 2, 15, 31, 59),
      text: 'x',
    }),
  ],
  [
    '14-digit dates with a 4-digit year',
    'id:77 submit date:20240102153005 done date:20240102153159 stat:DELIVRD err:0',
    {
      id: '77',
      stat: 'DELIVRD',
      err: '0',
      submitDate: utc(2024, 1, 2, 15, 30, 5),
      doneDate: utc(2024, 1, 2, 15, 31, 59),
    },
  ],
  [
    'upper-case Text: and capitalised keys',
    'ID:42 Sub:001 Dlvrd:001 Submit date:2401021530 Done date:2401021531 Stat:DELIVRD Err:000 Text:Hello',
    full({ id: '42', text: 'Hello' }),
  ],
  [
    'lower-case keys and a lower-case stat value',
    'id:42 sub:001 dlvrd:001 submit date:2401021530 done date:2401021531 stat:delivrd err:000 text:hi',
    full({ id: '42', text: 'hi' }),
  ],
  [
    'all upper-case keys',
    'ID:42 SUB:001 DLVRD:001 SUBMIT DATE:2401021530 DONE DATE:2401021531 STAT:UNDELIV ERR:001 TEXT:',
    full({ id: '42', stat: 'UNDELIV', err: '001', text: '' }),
  ],
  [
    'missing text:',
    'id:42 sub:001 dlvrd:001 submit date:2401021530 done date:2401021531 stat:DELIVRD err:000',
    (({ text: _text, ...rest }) => ({ ...rest, id: '42' }))(full({})),
  ],
  [
    'missing sub and dlvrd',
    'id:42 submit date:2401021530 done date:2401021531 stat:EXPIRED err:003 text:t',
    {
      id: '42',
      stat: 'EXPIRED',
      err: '003',
      submitDate: utc(2024, 1, 2, 15, 30),
      doneDate: utc(2024, 1, 2, 15, 31),
      text: 't',
    },
  ],
  [
    'extra spaces between and after the colons',
    '  id: 42   sub:001  dlvrd: 001 submit  date:2401021530   done date: 2401021531  stat:  DELIVRD   err:000  text:  two  spaces',
    full({ id: '42', text: '  two  spaces' }),
  ],
  [
    'submit_date / done_date spelling',
    'id:9 submit_date:2401021530 done_date:2401021531 stat:DELIVRD',
    {
      id: '9',
      stat: 'DELIVRD',
      submitDate: utc(2024, 1, 2, 15, 30),
      doneDate: utc(2024, 1, 2, 15, 31),
    },
  ],
  [
    'comma-separated fields',
    'id:9,sub:001,dlvrd:001,stat:DELIVRD,err:000',
    {
      id: '9',
      sub: '001',
      dlvrd: '001',
      stat: 'DELIVRD',
      err: '000',
    },
  ],
  ['tab-separated fields', 'id:9\tstat:UNDELIV\terr:005', { id: '9', stat: 'UNDELIV', err: '005' }],
  ['fields in another order', 'stat:DELIVRD err:000 id:5', { id: '5', stat: 'DELIVRD', err: '000' }],
  ['id with leading zeros is kept as written', appendixB({ id: '0000012345' }), full({ id: '0000012345' })],
  ['id 0', appendixB({ id: '0' }), full({ id: '0' })],
  ['sequential decimal id 1', appendixB({ id: '1' }), full({ id: '1' })],
  ['lower-case hex id', appendixB({ id: '1a2b3c4d5e6f7a8b' }), full({ id: '1a2b3c4d5e6f7a8b' })],
  ['upper-case hex id keeps its case', appendixB({ id: '0A1B2C' }), full({ id: '0A1B2C' })],
  [
    'UUID id',
    appendixB({ id: '3f2b8c1e-9d4a-4e7b-8a6f-1c2d3e4f5a6b' }),
    full({ id: '3f2b8c1e-9d4a-4e7b-8a6f-1c2d3e4f5a6b' }),
  ],
  ['err of 1 digit', appendixB({ stat: 'UNDELIV', err: '1' }), full({ stat: 'UNDELIV', err: '1' })],
  ['err of 2 digits', appendixB({ stat: 'UNDELIV', err: '05' }), full({ stat: 'UNDELIV', err: '05' })],
  ['err of 3 digits', appendixB({ stat: 'UNDELIV', err: '069' }), full({ stat: 'UNDELIV', err: '069' })],
  ['err of 4 digits', appendixB({ stat: 'REJECTD', err: '1234' }), full({ stat: 'REJECTD', err: '1234' })],
  ['err in hex', appendixB({ stat: 'UNDELIV', err: '0x1F' }), full({ stat: 'UNDELIV', err: '0x1F' })],
  ...['DELIVRD', 'UNDELIV', 'EXPIRED', 'REJECTD', 'DELETED', 'UNKNOWN', 'ACCEPTD', 'ENROUTE'].map(
    (stat): [string, string, ParsedReceipt] => [`stat ${stat}`, appendixB({ stat }), full({ stat })],
  ),
  [
    'text: containing stat:, id: and err: does not override the real fields',
    appendixB({ stat: 'UNDELIV', err: '001', text: 'id:999 stat:DELIVRD err:000 done date:9901010000' }),
    full({ stat: 'UNDELIV', err: '001', text: 'id:999 stat:DELIVRD err:000 done date:9901010000' }),
  ],
  [
    'a field missing before text: is not taken from inside it',
    'id:5 err:000 dlvrd:000 text:ok stat:DELIVRD done date:2401021531',
    { id: '5', err: '000', dlvrd: '000', text: 'ok stat:DELIVRD done date:2401021531' },
  ],
  [
    'text: that is itself "text:"',
    appendixB({ text: 'text: stat:DELIVRD' }),
    full({ text: 'text: stat:DELIVRD' }),
  ],
  [
    'a key inside a word is not a key (paid:, substat:)',
    'id:5 paid:7 substat:X stat:DELIVRD',
    { id: '5', stat: 'DELIVRD' },
  ],
  [
    'an invalid date is dropped, the rest kept',
    'id:5 submit date:2413321599 done date:2402301200 stat:DELIVRD err:000',
    { id: '5', stat: 'DELIVRD', err: '000' },
  ],
  [
    'no stat but other fields: the id is still usable',
    'id:5 err:000 dlvrd:001',
    {
      id: '5',
      err: '000',
      dlvrd: '001',
    },
  ],
];

describe('parseReceiptText', () => {
  it.each(cases)('%s', (_name, input, expected) => {
    expect(parseReceiptText(input)).toEqual(expected);
    expect(parseReceiptText(Buffer.from(input, 'latin1'))).toEqual(expected);
  });

  it.each([
    ['empty', ''],
    ['plain MO text', 'hello world'],
    ['only spaces', '     '],
    ['stat without id', 'stat:DELIVRD err:000'],
    ['a lone id', 'id:12345'],
    ['an id only inside text:', 'text: id:1 stat:DELIVRD'],
    ['empty id before other fields', 'id: sub:001 dlvrd:001 stat:DELIVRD'],
    ['empty id at the end', 'stat:DELIVRD err:000 id:'],
    ['binary noise', '\u0000\u0001\u00ff\u00fe:::id::::stat:::'],
    ['colons only', '::::::::'],
    ['JSON', '{"id":"1","stat":"DELIVRD"}'],
    ['very long garbage', 'x'.repeat(100_000)],
  ])('%s → undefined', (_name, input) => {
    expect(parseReceiptText(input)).toBeUndefined();
  });

  it('never throws on inputs of the wrong type', () => {
    for (const bad of [undefined, null, 42, {}, []]) {
      expect(parseReceiptText(bad as unknown as string)).toBeUndefined();
    }
  });

  it('never throws on random bytes', () => {
    let seed = 12345;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const alphabet = 'id:stat err: dlvrdsubmit date0123456789abcdefDELIVRtext:,;\t';
    for (let i = 0; i < 2000; i++) {
      const len = next() % 120;
      const s = Array.from({ length: len }, () => alphabet[next() % alphabet.length]).join('');
      const r = parseReceiptText(s);
      if (r !== undefined) expect(r.id).toMatch(/^[^\s,;]+$/);
    }
  });

  it('reads a receipt whose text: is longer than the look-at limit without hanging', () => {
    const r = parseReceiptText(appendixB({ text: 'y'.repeat(50_000) }));
    expect(r?.id).toBe('1234567890');
    expect(r?.stat).toBe('DELIVRD');
  });
});

describe('parseReceiptDate', () => {
  it.each([
    ['2401021530', utc(2024, 1, 2, 15, 30)],
    ['240102153045', utc(2024, 1, 2, 15, 30, 45)],
    ['20240102153045', utc(2024, 1, 2, 15, 30, 45)],
    ['0001010000', utc(2000, 1, 1, 0, 0)],
    ['2402291200', utc(2024, 2, 29, 12, 0)],
  ])('%s', (s, expected) => {
    expect(parseReceiptDate(s)).toEqual(expected);
  });

  it.each([
    '2302291200',
    '2413011200',
    '2401321200',
    '2401012400',
    '2401011260',
    '240101120060',
    '24010112',
    '240101120',
    'abcdefghij',
    '2401021530x',
  ])('rejects %s', (s) => {
    expect(parseReceiptDate(s)).toBeUndefined();
  });
});

describe('STAT_BY_MESSAGE_STATE', () => {
  it('maps the SMPP message_state values to stat words', () => {
    expect([...STAT_BY_MESSAGE_STATE]).toEqual([
      [1, 'ENROUTE'],
      [2, 'DELIVRD'],
      [3, 'EXPIRED'],
      [4, 'DELETED'],
      [5, 'UNDELIV'],
      [6, 'ACCEPTD'],
      [7, 'UNKNOWN'],
      [8, 'REJECTD'],
    ]);
  });
});
