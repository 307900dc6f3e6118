import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SenderIdDto } from '@wren/contracts';
import { signInForTest } from '@/test/render-page';
import { SenderIdTable } from './sender-id-table';

// An owner: the row actions need sender-ids:manage (issue 39; sender-ids-roles.test per role).
beforeEach(() => signInForTest('owner'));

const item = (id: string, value: string, status: SenderIdDto['status'], extra: Partial<SenderIdDto> = {}) =>
  ({
    id,
    value,
    kind: /^\d+$/.test(value) ? 'numeric' : 'alphanumeric',
    purpose: 'Order updates',
    sampleMessage: 'Your order has shipped.',
    status,
    reason: null,
    isDefault: false,
    createdAt: '2024-03-01T10:00:00.000Z',
    decidedAt: null,
    ...extra,
  }) satisfies SenderIdDto;

const ITEMS = [
  item('1', 'WrenShop', 'approved', { isDefault: true, reason: 'Approved automatically' }),
  item('2', '12125550101', 'approved'),
  item('3', 'WrenPromo', 'requested'),
  item('4', 'Acme', 'rejected', { reason: 'Brand names need a trademark document' }),
];

function setup() {
  const onMakeDefault = vi.fn();
  const onDelete = vi.fn();
  render(
    <MantineProvider env="test">
      <SenderIdTable items={ITEMS} settingDefault={null} onMakeDefault={onMakeDefault} onDelete={onDelete} />
    </MantineProvider>,
  );
  const row = (value: string) => screen.getByRole('row', { name: new RegExp(value) });
  return { row, onMakeDefault, onDelete };
}

describe('SenderIdTable', () => {
  it('shows each status, the rejection reason and the default', () => {
    const { row } = setup();
    expect(within(row('WrenShop')).getByText('Default')).toBeInTheDocument();
    expect(within(row('WrenShop')).getByText('Approved')).toBeInTheDocument();
    expect(within(row('WrenShop')).queryByText('Approved automatically')).not.toBeInTheDocument();
    expect(within(row('WrenPromo')).getByText('Pending review')).toBeInTheDocument();
    expect(within(row('Acme')).getByText('Rejected')).toBeInTheDocument();
    expect(
      within(row('Acme')).getByText('Reason: Brand names need a trademark document'),
    ).toBeInTheDocument();
    expect(within(row('12125550101')).getByText('numeric')).toBeInTheDocument();
  });

  it('offers "Make default" only on approved sender IDs that are not the default', async () => {
    const { onMakeDefault } = setup();
    const buttons = screen.getAllByRole('button', { name: /^Make .* the default sender ID$/ });
    expect(buttons.map((b) => b.getAttribute('aria-label'))).toEqual([
      'Make 12125550101 the default sender ID',
    ]);
    await userEvent.click(buttons[0]);
    expect(onMakeDefault).toHaveBeenCalledWith(ITEMS[1]);
  });

  it('asks to delete any of them by name', async () => {
    const { onDelete } = setup();
    await userEvent.click(screen.getByRole('button', { name: 'Delete sender ID Acme' }));
    expect(onDelete).toHaveBeenCalledWith(ITEMS[3]);
  });
});
