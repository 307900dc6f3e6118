import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { ACCOUNT_ROLES, roleCan } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { fakeAdapter } from '@/test/fake-adapter';
import { renderScreen, signInForTest } from '@/test/render-page';
import GroupContactsPage from './pages/group-contacts-page';

const original = http.defaults.adapter;
afterEach(() => {
  http.defaults.adapter = original;
  cleanup();
});

const GROUP = {
  id: 'g1',
  name: 'VIP',
  contactCount: 1,
  createdAt: '2025-01-01T00:00:00Z',
  updatedAt: '2025-01-01T00:00:00Z',
};
const CONTACT = {
  id: 'k1',
  groupId: 'g1',
  phone: '+14155550100',
  name: 'Grace Hopper',
  fields: {},
  createdAt: '2025-01-01T00:00:00Z',
  updatedAt: '2025-01-01T00:00:00Z',
};

function show(contacts: unknown[]) {
  http.defaults.adapter = fakeAdapter((config) => {
    if (config.url === '/api/groups/g1')
      return { status: 200, data: { ...GROUP, contactCount: contacts.length } };
    if (config.url === '/api/groups/g1/contacts')
      return { status: 200, data: { items: contacts, nextCursor: null } };
    return { status: 404 };
  });
  renderScreen(
    <Routes>
      <Route path="/groups/:id/contacts" element={<GroupContactsPage />} />
    </Routes>,
    '/groups/g1/contacts',
  );
}

// Issue 39: a role that reads contacts (analyst) sees them without Add, Import, Edit, Delete or
// the selection (which only deletes); Export CSV is a read.
describe.each(ACCOUNT_ROLES.filter((r) => roleCan(r, 'contacts:read')))(
  'contacts of a group as %s',
  (role) => {
    const may = roleCan(role, 'contacts:write');

    it(`Add, Import, Edit, Delete and Select ${may ? 'show' : 'are hidden'}`, async () => {
      signInForTest(role);
      show([CONTACT]);
      expect((await screen.findAllByText('Grace Hopper')).length).toBeGreaterThan(0);
      expect(!!screen.queryByRole('button', { name: 'Add contact' })).toBe(may);
      expect(!!screen.queryByRole('button', { name: 'Import' })).toBe(may);
      expect(screen.queryAllByRole('button', { name: 'Edit Grace Hopper' }).length > 0).toBe(may);
      expect(screen.queryAllByRole('button', { name: 'Delete Grace Hopper' }).length > 0).toBe(may);
      expect(screen.queryAllByRole('checkbox').length > 0).toBe(may);
      expect(!!screen.queryByRole('button', { name: 'Export CSV' })).toBe(true);
    });

    it(`the empty group's Add contact and Import a file ${may ? 'show' : 'are hidden'}`, async () => {
      signInForTest(role);
      show([]);
      expect(await screen.findByText('This group has no contacts yet')).toBeInTheDocument();
      expect(
        screen.queryAllByRole('button', { name: /^(Add contact|Import a file|Import)$/ }).length > 0,
      ).toBe(may);
    });
  },
);
