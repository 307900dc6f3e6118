import { describe, expect, it } from 'vitest';
import type { SenderIdDto } from '@wren/contracts';
import { senderChoices } from './sender-options';

const sender = (value: string, over: Partial<SenderIdDto> = {}): SenderIdDto => ({
  id: value,
  value,
  kind: 'alphanumeric',
  purpose: 'Alerts',
  sampleMessage: 'Hi',
  status: 'approved',
  reason: null,
  isDefault: false,
  createdAt: '2025-01-01T00:00:00Z',
  decidedAt: null,
  ...over,
});

describe('senderChoices', () => {
  it('offers only the platform sender when the account has none', () => {
    expect(senderChoices(undefined, 'Wren')).toEqual({
      options: [{ value: 'Wren', label: 'Wren (default)' }],
      defaultValue: 'Wren',
    });
  });

  it('lists approved sender IDs with the account default marked, and pending ones disabled', () => {
    const choices = senderChoices(
      [
        sender('ACME'),
        sender('ACMEALERTS', { isDefault: true }),
        sender('NEWONE', { status: 'requested' }),
        sender('BAD', { status: 'rejected' }),
      ],
      'Wren',
    );
    expect(choices.defaultValue).toBe('ACMEALERTS');
    expect(choices.options).toEqual([
      { value: 'ACME', label: 'ACME' },
      { value: 'ACMEALERTS', label: 'ACMEALERTS (default)' },
      { value: 'NEWONE', label: 'NEWONE (awaiting approval)', disabled: true },
    ]);
  });

  it('keeps the platform sender as the default while no approved sender ID is the default', () => {
    const choices = senderChoices([sender('ACME')], 'Wren');
    expect(choices.defaultValue).toBe('Wren');
    expect(choices.options.map((o) => o.value)).toEqual(['Wren', 'ACME']);
  });

  it("offers this server's shared sender, whatever its name (DEFAULT_SENDER)", () => {
    const choices = senderChoices([sender('ACME')], 'Acme Cloud');
    expect(choices.defaultValue).toBe('Acme Cloud');
    expect(choices.options[0]).toEqual({ value: 'Acme Cloud', label: 'Acme Cloud (default)' });
  });

  it('names no sender until the shared one is known (the server then picks)', () => {
    expect(senderChoices([sender('ACME')], undefined)).toEqual({
      options: [{ value: 'ACME', label: 'ACME' }],
      defaultValue: '',
    });
  });
});
