import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { ACCOUNT_ROLES, roleCan } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { fakeAdapter } from '@/test/fake-adapter';
import { renderScreen, signInForTest } from '@/test/render-page';
import GroupsPage from './pages/groups-page';

const original = http.defaults.adapter;
afterEach(() => {
  http.defaults.adapter = original;
  cleanup();
});

const GROUP = {
  id: 'g1',
  name: 'VIP',
  contactCount: 2,
  createdAt: '2025-01-01T00:00:00Z',
  updatedAt: '2025-01-01T00:00:00Z',
};

// Issue 39: a role that may read but not write sees the list without its create/rename/delete actions.
describe.each(ACCOUNT_ROLES.filter((r) => roleCan(r, 'contacts:read')))('groups as %s', (role) => {
  it('shows New group, Rename and Delete exactly when the role has contacts:write', async () => {
    signInForTest(role);
    http.defaults.adapter = fakeAdapter(() => ({ status: 200, data: { items: [GROUP] } }));
    renderScreen(<GroupsPage />);
    expect((await screen.findAllByText('VIP')).length).toBeGreaterThan(0);
    const may = roleCan(role, 'contacts:write');
    expect(!!screen.queryByRole('button', { name: 'New group' })).toBe(may);
    expect(screen.queryAllByRole('button', { name: 'Delete group VIP' }).length > 0).toBe(may);
  });
});
