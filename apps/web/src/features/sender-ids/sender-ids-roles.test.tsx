import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { ACCOUNT_ROLES, roleCan, SENDER_ID_API, type SenderIdDto } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { fakeAdapter } from '@/test/fake-adapter';
import { renderScreen, signInForTest } from '@/test/render-page';
import SenderIdsPage from './pages/sender-ids-page';

const original = http.defaults.adapter;
afterEach(() => {
  http.defaults.adapter = original;
  cleanup();
});

const sender = (id: string, value: string, isDefault: boolean): SenderIdDto => ({
  id,
  value,
  kind: 'alphanumeric',
  purpose: 'Order updates',
  sampleMessage: 'Your order shipped',
  status: 'approved',
  reason: null,
  isDefault,
  createdAt: '2025-01-01T00:00:00Z',
  decidedAt: '2025-01-01T00:00:00Z',
});

// Issue 39: Make default and Delete are sender-ids:manage's; a role that only reads sees the list.
describe.each(ACCOUNT_ROLES.filter((r) => roleCan(r, 'sender-ids:read')))('sender IDs as %s', (role) => {
  it('shows Make default and Delete exactly when the role has sender-ids:manage', async () => {
    signInForTest(role);
    http.defaults.adapter = fakeAdapter((config) =>
      config.url === SENDER_ID_API.list
        ? { status: 200, data: { items: [sender('s1', 'ACME', true), sender('s2', 'SHOP', false)] } }
        : { status: 200, data: { approval: 'manual', platformSender: 'Wren' } },
    );
    renderScreen(<SenderIdsPage />);
    expect((await screen.findAllByText('SHOP')).length).toBeGreaterThan(0);
    const may = roleCan(role, 'sender-ids:manage');
    expect(!!screen.queryByRole('button', { name: 'Make SHOP the default sender ID' })).toBe(may);
    expect(screen.queryAllByRole('button', { name: /^Delete sender ID/ }).length > 0).toBe(may);
    expect(!!screen.queryByRole('columnheader', { name: 'Actions' })).toBe(may);
  });
});
