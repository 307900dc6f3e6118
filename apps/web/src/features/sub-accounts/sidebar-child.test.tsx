import { describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { AccountStatusSummary } from '@wren/contracts';
import { Sidebar } from '@/app/layout/sidebar';
import { setTokens } from '@/lib/session';
import { ACCOUNT_STATUS_KEY } from './api/account-status';

function links(status: AccountStatusSummary | null, role = 'owner') {
  const claims = btoa(JSON.stringify({ sub: 'u', aid: 'a', arl: role })).replace(/=+$/, '');
  setTokens({ accessToken: `e30.${claims}.sig`, refreshToken: 'r' });
  const client = new QueryClient();
  if (status) client.setQueryData(ACCOUNT_STATUS_KEY, status);
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/settings/team']}>
          <Sidebar />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
  const nav = screen.getByRole('navigation', { name: 'Main menu' });
  const hrefs = within(nav)
    .getAllByRole('link')
    .map((a) => a.getAttribute('href'));
  cleanup();
  return hrefs;
}

describe('the Sub-accounts entry (issue 39 item 4)', () => {
  it('shows for owners and admins of an account that is not a child', () => {
    const status = { locked: false, reason: null, isChild: false };
    expect(links(status)).toContain('/settings/sub-accounts');
    expect(links(status, 'admin')).toContain('/settings/sub-accounts');
    expect(links(status, 'billing')).not.toContain('/settings/sub-accounts');
    expect(links(status, 'developer')).not.toContain('/settings/sub-accounts');
  });

  it('is hidden in a child account (sub-accounts are one level deep)', () => {
    expect(links({ locked: false, reason: null, isChild: true })).not.toContain('/settings/sub-accounts');
    expect(links({ locked: false, reason: null, isChild: true })).toContain('/settings/team');
  });
});
