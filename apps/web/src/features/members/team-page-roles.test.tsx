import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { ACCOUNT_ROLES, MEMBERS_API, roleCan } from '@wren/contracts';
import { http } from '@/lib/http/client';
import { fakeAdapter } from '@/test/fake-adapter';
import { renderScreen, signInForTest } from '@/test/render-page';
import TeamPage from './pages/team-page';

const original = http.defaults.adapter;
afterEach(() => {
  http.defaults.adapter = original;
  cleanup();
});

const member = (userId: string, name: string, role: string, you = false) => ({
  userId,
  name,
  username: userId,
  email: `${userId}@example.com`,
  role,
  joinedAt: '2025-01-01T00:00:00Z',
  you,
});
const invite = (id: string, email: string, role: string) => ({
  id,
  email,
  role,
  expiresAt: '2099-01-01T00:00:00Z',
  createdAt: '2025-01-01T00:00:00Z',
  invitedBy: 'Ada',
});

// Issue 39: the Team page's actions are useCan's: managing members is members:manage's, and an
// owner (their role, their removal, an invite to be one) is account:owner's (an admin lacks it).
describe.each(ACCOUNT_ROLES.filter((r) => roleCan(r, 'members:read')))('the Team page as %s', (role) => {
  it('shows the invite form, role choices, Remove and Revoke as the role allows', async () => {
    signInForTest(role);
    http.defaults.adapter = fakeAdapter((config) => {
      if (config.url === MEMBERS_API.members) {
        return {
          status: 200,
          data: { items: [member('o1', 'Olive Owner', 'owner'), member('s1', 'Sam Sender', 'sender')] },
        };
      }
      if (config.url === MEMBERS_API.invites) {
        return {
          status: 200,
          data: {
            items: [invite('i1', 'boss@example.com', 'owner'), invite('i2', 'dev@example.com', 'developer')],
          },
        };
      }
      return { status: 404 };
    });
    renderScreen(<TeamPage />);
    expect(await screen.findByText('Olive Owner')).toBeInTheDocument();
    expect(await screen.findByText('boss@example.com')).toBeInTheDocument();
    const manage = roleCan(role, 'members:manage');
    const owners = roleCan(role, 'account:owner');
    expect(!!screen.queryByRole('form', { name: 'Invite a member' })).toBe(manage);
    expect(screen.queryAllByLabelText('Role of Sam Sender').length > 0).toBe(manage);
    expect(screen.queryAllByLabelText('Role of Olive Owner').length > 0).toBe(owners);
    expect(screen.queryAllByRole('button', { name: 'Remove' })).toHaveLength(
      (manage ? 1 : 0) + (owners ? 1 : 0),
    );
    // One Revoke per invite the role may withdraw: an owner's invite only by an owner.
    expect(screen.queryAllByRole('button', { name: 'Revoke' })).toHaveLength(
      (manage ? 1 : 0) + (owners ? 1 : 0),
    );
  });
});
