import { describe, expect, it } from 'vitest';
import { analyseSmsText } from '@wren/contracts';
import { brokenPlaceholders, charactersLeft, insertAt, perSegment, splitPlaceholders } from './template-text';

describe('splitPlaceholders', () => {
  it('cuts text into plain runs and placeholders', () => {
    expect(splitPlaceholders('Hi {{name}}, your code is {{ code }}.')).toEqual([
      { kind: 'text', text: 'Hi ' },
      { kind: 'placeholder', text: '{{name}}', name: 'name' },
      { kind: 'text', text: ', your code is ' },
      { kind: 'placeholder', text: '{{ code }}', name: 'code' },
      { kind: 'text', text: '.' },
    ]);
  });

  it('handles placeholders at both ends and side by side', () => {
    expect(splitPlaceholders('{{a}}{{b}}').map((p) => p.kind)).toEqual(['placeholder', 'placeholder']);
  });

  it('leaves text without placeholders whole, and empty text empty', () => {
    expect(splitPlaceholders('Hello { there }')).toEqual([{ kind: 'text', text: 'Hello { there }' }]);
    expect(splitPlaceholders('')).toEqual([]);
  });

  it('does not treat invalid names as placeholders', () => {
    expect(splitPlaceholders('{{first name}} {{1st}}').every((p) => p.kind === 'text')).toBe(true);
  });
});

describe('brokenPlaceholders', () => {
  it('finds invalid names, unclosed and stray braces, each once', () => {
    expect(brokenPlaceholders('Hi {{first name}} and {{first name}}')).toEqual(['{{first name}}']);
    expect(brokenPlaceholders('Hi {{name')).toEqual(['{{name']);
    expect(brokenPlaceholders('Hi name}} there')).toEqual(['name}}']);
  });

  it('is empty for valid placeholders and single braces', () => {
    expect(brokenPlaceholders('Hi {{name}}, {{ code }} {x}')).toEqual([]);
  });
});

describe('insertAt', () => {
  it('replaces the selection and puts the caret after the snippet', () => {
    expect(insertAt('Hello world', '{{name}}', 6, 11)).toEqual({ text: 'Hello {{name}}', caret: 14 });
    expect(insertAt('', '{{name}}', 0)).toEqual({ text: '{{name}}', caret: 8 });
  });
});

describe('segment capacity', () => {
  it('is 160/153 for GSM-7 and 70/67 for UCS-2', () => {
    expect(perSegment({ encoding: 'GSM-7', segments: 1 })).toBe(160);
    expect(perSegment({ encoding: 'GSM-7', segments: 2 })).toBe(153);
    expect(perSegment({ encoding: 'UCS-2', segments: 1 })).toBe(70);
    expect(perSegment({ encoding: 'UCS-2', segments: 3 })).toBe(67);
  });

  it('counts what still fits in the current segments', () => {
    expect(charactersLeft(analyseSmsText(''))).toBe(160);
    expect(charactersLeft(analyseSmsText('a'.repeat(150)))).toBe(10);
    expect(charactersLeft(analyseSmsText('a'.repeat(161)))).toBe(306 - 161);
    expect(charactersLeft(analyseSmsText('Привет'))).toBe(64);
    // € is a GSM-7 escape and counts twice.
    expect(charactersLeft(analyseSmsText('€'))).toBe(158);
  });
});
