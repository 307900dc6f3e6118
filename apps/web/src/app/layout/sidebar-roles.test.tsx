import { describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { MemoryRouter } from 'react-router';
import { ACCOUNT_ROLES, ROLE_PERMISSIONS, type AccountRole } from '@wren/contracts';
import { setTokens } from '@/lib/session';
import { accessTokenFor } from '@/test/render-page';
import { isMenuGroup, MENU, type MenuLink } from './menu';
import { Sidebar } from './sidebar';

function linksFor(role: AccountRole): string[] {
  setTokens({ accessToken: accessTokenFor(role), refreshToken: 'r' });
  render(
    <MantineProvider env="test">
      <MemoryRouter initialEntries={['/dashboard']}>
        {/* Folded, every entry (those of groups too) is a link. */}
        <Sidebar folded />
      </MemoryRouter>
    </MantineProvider>,
  );
  const nav = screen.getByRole('navigation', { name: 'Main menu' });
  const hrefs = within(nav)
    .getAllByRole('link')
    .map((a) => a.getAttribute('href') ?? '');
  cleanup();
  return hrefs;
}

const allLinks: MenuLink[] = MENU.flatMap((s) => s.items.flatMap((i) => (isMenuGroup(i) ? i.children : [i])));

/** What the sidebar should show a role, worked out from contracts' ROLE_PERMISSIONS alone. */
const expected = (role: AccountRole) =>
  allLinks
    .filter((l) => !l.permission || l.permission === 'self' || ROLE_PERMISSIONS[role].includes(l.permission))
    .map((l) => l.to);

describe('the sidebar of each role matches ROLE_PERMISSIONS (issue 39)', () => {
  it.each(ACCOUNT_ROLES)('%s', (role) => {
    expect(linksFor(role)).toEqual(expected(role));
  });

  it('shows a billing member only the dashboard and billing, and an analyst no send page, no API keys and no billing', () => {
    expect(linksFor('billing')).toEqual(['/dashboard', '/billing']);
    const analyst = linksFor('analyst');
    expect(analyst).toContain('/reports/sms-log');
    expect(analyst).not.toContain('/sms/single');
    expect(analyst).not.toContain('/api');
    expect(analyst).not.toContain('/settings/team');
    expect(analyst).not.toContain('/billing');
  });
});
