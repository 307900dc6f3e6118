import { describe, expect, it } from 'vitest';
import { analyseSmsText } from '@wren/contracts';
import { describeChar, replaceableChars, replaceLookAlikes } from './gsm-replacements';

describe('replaceLookAlikes', () => {
  it('turns smart punctuation into GSM-7, which keeps the text in one 160-character segment', () => {
    const text = '“Hello” – it’s… ready\u00A0now';
    expect(analyseSmsText(text).encoding).toBe('UCS-2');
    const fixed = replaceLookAlikes(text);
    expect(fixed).toBe('"Hello" - it\'s... ready now');
    expect(analyseSmsText(fixed).encoding).toBe('GSM-7');
  });

  it('leaves characters without a look-alike alone', () => {
    expect(replaceLookAlikes('Olá 😀')).toBe('Olá 😀');
    expect(replaceableChars(['😀', '’', 'ł'])).toEqual(['’']);
  });

  it('names invisible characters', () => {
    expect(describeChar('\u00A0')).toBe('no-break space');
    expect(describeChar('é')).toBe('é');
  });
});
