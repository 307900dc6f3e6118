import { describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { MemoryRouter } from 'react-router';
import type { AccountRole } from '@wren/contracts';
import { setTokens } from '@/lib/session';
import { Sidebar } from './sidebar';

function renderSidebar(folded = false, at = '/dashboard', role: AccountRole = 'owner') {
  // The member's role in the current account, as the access token names it (claim arl).
  const claims = btoa(JSON.stringify({ sub: 'u', aid: 'a', arl: role })).replace(/=+$/, '');
  setTokens({ accessToken: `e30.${claims}.sig`, refreshToken: 'r' });
  render(
    <MantineProvider env="test">
      <MemoryRouter initialEntries={[at]}>
        <Sidebar folded={folded} />
      </MemoryRouter>
    </MantineProvider>,
  );
  return screen.getByRole('navigation', { name: 'Main menu' });
}

const linksOf = (nav: HTMLElement) =>
  within(nav)
    .getAllByRole('link')
    .map((a) => [a.getAttribute('aria-label') ?? a.textContent, a.getAttribute('href')]);

describe('sidebar menu', () => {
  it('is exactly the menu of the spec, with the Settings group open on its pages', () => {
    const nav = renderSidebar(false, '/groups');
    expect(within(nav).getByText('Messaging')).toBeInTheDocument();
    expect(within(nav).getByText('Reports')).toBeInTheDocument();
    expect(within(nav).getByText('Config.')).toBeInTheDocument();
    expect(within(nav).getByRole('button', { name: 'Settings' })).toBeInTheDocument();
    expect(linksOf(nav)).toEqual([
      ['Dashboard', '/dashboard'],
      ['Single SMS', '/sms/single'],
      ['Bulk SMS', '/sms/bulk'],
      ['Personalised SMS', '/sms/personalised-bulk'],
      ['Conversations', '/messaging/conversations'],
      ['SMS Log', '/reports/sms-log'],
      ['Campaign Report', '/reports/bulk-sms-report'],
      ['Scheduled SMS', '/reports/scheduled-sms'],
      ['Billing', '/billing'],
      ['SMS & OTP API', '/api'],
      ['Sender ID', '/sender-id'],
      ['Numbers', '/settings/numbers'],
      ['Contact Group', '/groups'],
      ['Saved Messages', '/templates'],
      ['Send window', '/settings/send-window'],
      ['Team', '/settings/team'],
      ['Sub-accounts', '/settings/sub-accounts'],
    ]);
    expect(within(nav).getByRole('link', { name: 'Contact Group' })).toHaveAttribute('aria-current', 'page');
  });

  it('keeps every entry reachable, by its name, when folded to icons', () => {
    const nav = renderSidebar(true, '/api/3/view');
    expect(linksOf(nav).map(([label]) => label)).toEqual([
      'Dashboard',
      'Single SMS',
      'Bulk SMS',
      'Personalised SMS',
      'Conversations',
      'SMS Log',
      'Campaign Report',
      'Scheduled SMS',
      'Billing',
      'SMS & OTP API',
      'Sender ID',
      'Numbers',
      'Contact Group',
      'Saved Messages',
      'Send window',
      'Team',
      'Sub-accounts',
    ]);
    expect(within(nav).getByRole('link', { name: 'SMS & OTP API' })).toHaveAttribute('aria-current', 'page');
  });

  it('hides what the role cannot use: a sender sees no API keys and no team, an analyst cannot send', () => {
    const sender = linksOf(renderSidebar(false, '/dashboard', 'sender')).map(([label]) => label);
    expect(sender).toContain('Single SMS');
    expect(sender).not.toContain('SMS & OTP API');
    expect(sender).not.toContain('Team');
    cleanup();
    const analyst = linksOf(renderSidebar(false, '/dashboard', 'analyst')).map(([label]) => label);
    expect(analyst).toContain('SMS Log');
    expect(analyst).not.toContain('Single SMS');
    // The send window (issue 41) is for the roles that send (Settings open on its pages).
    cleanup();
    const analystSettings = linksOf(renderSidebar(false, '/groups', 'analyst')).map(([label]) => label);
    expect(analystSettings).toContain('Contact Group');
    expect(analystSettings).not.toContain('Send window');
    cleanup();
    expect(linksOf(renderSidebar(false, '/groups', 'sender')).map(([label]) => label)).toContain(
      'Send window',
    );
  });
});
